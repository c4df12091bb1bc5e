import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { postgresDb, client, signedInUser } from '../../tests/helpers/clients.ts';

/**
 * Broadcast from the database (realtime.send, realtime.broadcast_changes) as Supabase Realtime delivers it:
 * a committed message reaches the channels of its topic; a private topic only reaches channels that RLS on
 * realtime.messages let join; public and private channels of one name are different topics.
 */

const suffix = crypto.randomUUID().slice(0, 8);
const publicTopic = `avisos-${suffix}`;
const privateTopic = `equipo-${suffix}`;
const table = `notas_${suffix}`;

interface Joined {
  status: string;
  error?: string;
  inbox: Array<Record<string, unknown>>;
  channel: RealtimeChannel;
}

/** Joins `topic` (privately or not) listening to `events`; resolves with the subscribe outcome. */
const join = (supabase: SupabaseClient, topic: string, events: string | string[], isPrivate: boolean) =>
  new Promise<Joined>((resolve) => {
    const inbox: Array<Record<string, unknown>> = [];
    const channel = supabase.channel(topic, { config: { private: isPrivate } });
    for (const event of [events].flat()) {
      channel.on('broadcast', { event }, (message) => inbox.push(message.payload as Record<string, unknown>));
    }
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR')
        resolve({ status, error: error?.message, inbox, channel });
    });
  });

/** SQL as the project's own code runs it (a migration's trigger, a function, psql). */
async function sql(text: string, values: unknown[] = []) {
  const db = await postgresDb();
  try {
    return await db.query(text, values);
  } finally {
    await db.end();
  }
}

let member: Awaited<ReturnType<typeof signedInUser>>;
let outsider: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  [member, outsider] = await Promise.all([signedInUser(), signedInUser()]);
  await sql(
    `create policy "The member reads ${privateTopic}" on realtime.messages for select to authenticated
       using (realtime.topic() = '${privateTopic}' and (select auth.uid()) = '${member.user.id}')`,
  );
  await sql(`create table public.${table} (id bigint generated always as identity primary key, texto text not null)`);
  await sql(
    `create function public.${table}_broadcast() returns trigger language plpgsql security definer set search_path = '' as $$
     begin
       perform realtime.broadcast_changes('${privateTopic}', tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
       return null;
     end $$`,
  );
  await sql(
    `create trigger ${table}_broadcast after insert or update or delete on public.${table}
       for each row execute function public.${table}_broadcast()`,
  );
  await Promise.all([member, outsider].map((user) => user.client.realtime.setAuth()));
});

afterAll(async () => {
  await Promise.all([member, outsider].map((user) => user?.client.removeAllChannels()));
  await sql(`drop table if exists public.${table}`);
  await sql(`drop function if exists public.${table}_broadcast()`);
  await sql(`drop policy if exists "The member reads ${privateTopic}" on realtime.messages`);
});

describe('realtime.send from SQL', () => {
  it('reaches a subscribed client once committed, with the message id in the payload; a rolled-back one never', async () => {
    const anon = client('anon');
    const listener = await join(anon, publicTopic, 'aviso', false);
    expect(listener.status).toBe('SUBSCRIBED');

    const db = await postgresDb();
    try {
      await db.query('begin');
      await db.query(`select realtime.send('{"texto": "descartado"}'::jsonb, 'aviso', $1, false)`, [publicTopic]);
      await db.query('rollback');
      await db.query(`select realtime.send('{"texto": "hola"}'::jsonb, 'aviso', $1, false)`, [publicTopic]);
      // Another event on the same topic is not what the client listens to.
      await db.query(`select realtime.send('{"texto": "otro"}'::jsonb, 'otro', $1, false)`, [publicTopic]);
      await db.query(`select realtime.send('{"texto": "adiós"}'::jsonb, 'aviso', $1, false)`, [publicTopic]);
    } finally {
      await db.end();
    }

    await expect.poll(() => listener.inbox.length).toBe(2);
    expect(listener.inbox.map((payload) => payload.texto)).toEqual(['hola', 'adiós']);
    expect(listener.inbox[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await sql(`select payload from realtime.messages where topic = $1 and event = 'aviso'`, [
      publicTopic,
    ]);
    expect(rows.map((row) => (row.payload as { id: string }).id)).toContain(listener.inbox[0]!.id);
    await anon.removeAllChannels();
  });

  it('delivers a private message only to clients RLS lets read the topic', async () => {
    const allowed = await join(member.client, privateTopic, 'aviso', true);
    const refused = await join(outsider.client, privateTopic, 'aviso', true);
    // The same name as a public channel is another topic: it does not receive private messages.
    const publicNamesake = await join(client('anon'), privateTopic, 'aviso', false);
    expect([allowed.status, refused.status, publicNamesake.status]).toEqual([
      'SUBSCRIBED',
      'CHANNEL_ERROR',
      'SUBSCRIBED',
    ]);
    expect(refused.error).toContain('Unauthorized');

    await sql(`select realtime.send('{"texto": "solo el equipo"}'::jsonb, 'aviso', $1, true)`, [privateTopic]);
    await sql(`select realtime.send('{"texto": "para todos"}'::jsonb, 'aviso', $1, false)`, [privateTopic]);

    await expect.poll(() => allowed.inbox.length).toBe(1);
    await expect.poll(() => publicNamesake.inbox.length).toBe(1);
    expect(allowed.inbox[0]!.texto).toBe('solo el equipo');
    expect(publicNamesake.inbox[0]!.texto).toBe('para todos');
    expect(refused.inbox).toEqual([]);
    await member.client.removeAllChannels();
  });
});

describe('realtime.broadcast_changes from a trigger', () => {
  it('sends each row change to the private topic, as Supabase shapes it', async () => {
    const allowed = await join(member.client, privateTopic, ['INSERT', 'UPDATE'], true);
    expect(allowed.status).toBe('SUBSCRIBED');

    const { rows } = await sql(`insert into public.${table} (texto) values ('primera') returning id`);
    const id = String(rows[0]!.id);
    await sql(`update public.${table} set texto = 'editada' where id = $1`, [id]);

    await expect.poll(() => allowed.inbox.length).toBe(2);
    expect(allowed.inbox[0]).toMatchObject({
      operation: 'INSERT',
      table,
      schema: 'public',
      record: { id: Number(id), texto: 'primera' },
      old_record: null,
    });
    expect(allowed.inbox[1]).toMatchObject({
      operation: 'UPDATE',
      record: { texto: 'editada' },
      old_record: { texto: 'primera' },
    });
  });
});
