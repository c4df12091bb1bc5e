import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeChannel, RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { adminDb, postgresDb, client, signedInUser, stackInfo } from '../../tests/helpers/clients.ts';

/**
 * postgres_changes through realtime-js against the stack: only subscribers whose RLS lets them read a row
 * receive its INSERT/UPDATE; shapes follow Supabase Realtime; filters narrow; reconnects resubscribe.
 */

type Payload = RealtimePostgresChangesPayload<Record<string, unknown>>;
const suffix = crypto.randomUUID().replaceAll('-', '').slice(0, 8);
const table = `rt_notes_${suffix}`;
/** Every kind of value, a column the API roles may not read, and REPLICA IDENTITY FULL. */
const kinds = `rt_kinds_${suffix}`;
/** A two-column primary key, as file_tags has. */
const pairs = `rt_pairs_${suffix}`;

class Inbox {
  readonly events: Payload[] = [];
  private waiters: Array<{ match: (p: Payload) => boolean; resolve: (p: Payload) => void }> = [];
  push(payload: Payload) {
    this.events.push(payload);
    this.waiters = this.waiters.filter((w) => (w.match(payload) ? (w.resolve(payload), false) : true));
  }
  next(match: (p: Payload) => boolean, timeoutMs = 15_000): Promise<Payload> {
    const found = this.events.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching realtime event arrived')), timeoutMs);
      this.waiters.push({ match, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  }
}

function subscribe(
  supabase: SupabaseClient,
  name: string,
  filter?: string,
  onTable = table,
): Promise<{ channel: RealtimeChannel; inbox: Inbox }> {
  const inbox = new Inbox();
  return new Promise((resolve, reject) => {
    const channel = supabase
      .channel(name)
      .on(
        'postgres_changes',
        { event: '*', schema: 'public', table: onTable, ...(filter ? { filter } : {}) },
        (payload) => inbox.push(payload as Payload),
      )
      .subscribe((status, error) => {
        // realtime-js may join before the session token reaches it; pushing it again makes the
        // server evaluate RLS with the signed-in user's claims from here on.
        if (status === 'SUBSCRIBED') void supabase.realtime.setAuth().then(() => resolve({ channel, inbox }));
        if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(error ?? new Error(status));
      });
  });
}

const noteIs = (note: string) => (p: Payload) => (p.new as { note?: string }).note === note;

let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  const db = await postgresDb();
  try {
    await db.query(`
      create table public.${table} (
        id bigint generated always as identity primary key,
        owner uuid not null default auth.uid(),
        note text not null
      );
      alter table public.${table} enable row level security;
      create policy "Owners read their notes" on public.${table} for select to authenticated using (owner = (select auth.uid()));
      create policy "Owners write their notes" on public.${table} for insert to authenticated with check (owner = (select auth.uid()));
      create policy "Owners change their notes" on public.${table} for update to authenticated using (owner = (select auth.uid()));
      create policy "Owners delete their notes" on public.${table} for delete to authenticated using (owner = (select auth.uid()));
      alter publication supabase_realtime add table public.${table};

      create table public.${kinds} (
        id bigint generated always as identity primary key,
        owner uuid not null default auth.uid(),
        amount numeric not null default 0,
        happened_at timestamptz,
        tags text[],
        details jsonb,
        done boolean not null default false,
        secret text
      );
      alter table public.${kinds} replica identity full;
      alter table public.${kinds} enable row level security;
      create policy "Owners read their rows" on public.${kinds} for select to authenticated using (owner = (select auth.uid()));
      create policy "Owners add rows" on public.${kinds} for insert to authenticated with check (owner = (select auth.uid()));
      create policy "Owners change their rows" on public.${kinds} for update to authenticated using (owner = (select auth.uid()));
      create policy "Owners delete their rows" on public.${kinds} for delete to authenticated using (owner = (select auth.uid()));
      revoke select on public.${kinds} from anon, authenticated;
      grant select (id, owner, amount, happened_at, tags, details, done) on public.${kinds} to authenticated;
      alter publication supabase_realtime add table public.${kinds};

      create table public.${pairs} (
        place text not null,
        seat int not null,
        owner uuid not null,
        primary key (place, seat)
      );
      alter table public.${pairs} enable row level security;
      create policy "Owners read their pairs" on public.${pairs} for select to authenticated using (owner = (select auth.uid()));
      grant select on public.${pairs} to authenticated;
      alter publication supabase_realtime add table public.${pairs};
    `);
  } finally {
    await db.end();
  }
  alice = await signedInUser();
  bob = await signedInUser();
  // Each client's realtime connection must carry its user's token, as the browser client does on sign-in.
  await alice.client.realtime.setAuth(alice.session.access_token);
  await bob.client.realtime.setAuth(bob.session.access_token);
});

afterAll(async () => {
  await alice?.client.removeAllChannels();
  await bob?.client.removeAllChannels();
  const db = await adminDb();
  try {
    await db.query(`alter publication supabase_realtime drop table public.${table}, public.${kinds}, public.${pairs}`);
    await db.query(`drop table public.${table}, public.${kinds}, public.${pairs}`);
  } finally {
    await db.end();
  }
});

describe('postgres_changes', () => {
  it('delivers every row of a large transaction, in order, to whoever may read them', async () => {
    // 2,500 rows in one transaction: the stack hands them on in batches as they are decoded (it once held a
    // whole transaction until its COMMIT, and a 1M-row bulk load took its Node process past the heap limit).
    const a = await subscribe(alice.client, 'alice-bulk');
    const b = await subscribe(bob.client, 'bob-bulk');
    const rows = 2500;
    const db = await adminDb();
    try {
      await db.query(
        `insert into public.${table} (owner, note) select $1, 'lote ' || n from generate_series(1, $2) n`,
        [alice.user.id, rows],
      );
    } finally {
      await db.end();
    }
    await a.inbox.next(noteIs(`lote ${rows}`), 30_000);
    const bulk = a.inbox.events.filter((event) => /^lote \d+$/.test((event.new as { note?: string }).note ?? ''));
    expect(bulk.map((event) => (event.new as { note: string }).note)).toEqual(
      Array.from({ length: rows }, (_, index) => `lote ${index + 1}`),
    );
    expect(new Set(bulk.map((event) => event.commit_timestamp)).size).toBe(1);
    expect(b.inbox.events.filter((event) => (event.new as { note?: string }).note?.startsWith('lote '))).toEqual([]);
    await alice.client.removeChannel(a.channel);
    await bob.client.removeChannel(b.channel);
  }, 60_000);

  it('keeps commit order across transactions decided at once, each checked on every table it touched', async () => {
    // 40 transactions back to back, two of each person in turn, every third writing to two tables: several
    // are decided at the same time, and each person must still get exactly their rows, in commit order.
    const a = await subscribe(alice.client, 'alice-order', undefined, '*');
    const b = await subscribe(bob.client, 'bob-order', undefined, '*');
    const expected = new Map<string, string[]>([
      [alice.user.id, []],
      [bob.user.id, []],
    ]);
    const db = await adminDb();
    try {
      const transactions: string[] = [];
      for (let i = 0; i < 40; i++) {
        const owner = i % 4 < 2 ? alice.user.id : bob.user.id;
        const statements = [`insert into public.${table} (owner, note) values ('${owner}', 'orden ${i}')`];
        expected.get(owner)!.push(`${table} orden ${i}`);
        if (i % 3 === 0) {
          statements.push(`insert into public.${pairs} (place, seat, owner) values ('orden', ${i}, '${owner}')`);
          expected.get(owner)!.push(`${pairs} orden/${i}`);
        }
        transactions.push(`begin; ${statements.join('; ')}; commit`);
      }
      await db.query(transactions.join(';\n'));
    } finally {
      await db.end();
    }
    const seen = (inbox: Inbox) =>
      inbox.events
        .filter((event) => event.table === table || event.table === pairs)
        .map((event) => {
          const row = event.new as { note?: string; place?: string; seat?: number };
          return event.table === table ? `${table} ${row.note}` : `${pairs} ${row.place}/${row.seat}`;
        })
        .filter((text) => / orden/.test(text));
    await expect.poll(() => seen(a.inbox).length).toBe(expected.get(alice.user.id)!.length);
    await expect.poll(() => seen(b.inbox).length).toBe(expected.get(bob.user.id)!.length);
    expect(seen(a.inbox)).toEqual(expected.get(alice.user.id));
    expect(seen(b.inbox)).toEqual(expected.get(bob.user.id));
    await alice.client.removeChannel(a.channel);
    await bob.client.removeChannel(b.channel);
  });

  it('delivers an insert only to the subscribers RLS lets read it, with the Supabase shape', async () => {
    const a = await subscribe(alice.client, 'alice-all');
    const b = await subscribe(bob.client, 'bob-all');
    const anon = await subscribe(client('anon'), 'anon-all');

    await alice.client.from(table).insert({ note: 'de alice' });
    const received = await a.inbox.next(noteIs('de alice'));
    expect(received).toMatchObject({
      schema: 'public',
      table,
      eventType: 'INSERT',
      new: { note: 'de alice', owner: alice.user.id },
      old: {},
    });
    expect(received.commit_timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(typeof (received.new as { id: unknown }).id).toBe('number');

    // Bob's own insert arrives after Alice's in commit order; by then Alice's must not have reached him.
    await bob.client.from(table).insert({ note: 'de bob' });
    await b.inbox.next(noteIs('de bob'));
    expect(b.inbox.events.some(noteIs('de alice'))).toBe(false);
    await alice.client.from(table).insert({ note: 'marca final' });
    await a.inbox.next(noteIs('marca final'));
    expect(anon.inbox.events).toEqual([]);
    expect(a.inbox.events.some(noteIs('de bob'))).toBe(false);
  });

  it('decides each row of a mixed transaction for each subscriber, by a two-column key', async () => {
    const a = await subscribe(alice.client, 'alice-pairs', undefined, pairs);
    const b = await subscribe(bob.client, 'bob-pairs', undefined, pairs);
    const db = await adminDb();
    try {
      // One transaction, rows of both people interleaved, keys with a quote, a comma and a backslash: each row
      // is checked for each person, in one batch.
      await db.query(
        `insert into public.${pairs} (place, seat, owner)
         select place, seat, case when seat % 2 = 0 then $1::uuid else $2::uuid end
           from unnest(array['sala "A"', 'b,c', 'd\\e']) as place, generate_series(1, 4) as seat`,
        [alice.user.id, bob.user.id],
      );
    } finally {
      await db.end();
    }
    const seen = (inbox: Inbox) =>
      inbox.events
        .map(
          (event) =>
            `${event.eventType} ${(event.new as { place: string }).place}/${(event.new as { seat: number }).seat}`,
        )
        .sort();
    await expect.poll(() => a.inbox.events.length).toBe(6);
    await expect.poll(() => b.inbox.events.length).toBe(6);
    expect(seen(a.inbox)).toEqual(
      [
        'INSERT b,c/2',
        'INSERT b,c/4',
        'INSERT d\\e/2',
        'INSERT d\\e/4',
        'INSERT sala "A"/2',
        'INSERT sala "A"/4',
      ].sort(),
    );
    expect(seen(b.inbox)).toEqual(
      [
        'INSERT b,c/1',
        'INSERT b,c/3',
        'INSERT d\\e/1',
        'INSERT d\\e/3',
        'INSERT sala "A"/1',
        'INSERT sala "A"/3',
      ].sort(),
    );
    await alice.client.removeChannel(a.channel);
    await bob.client.removeChannel(b.channel);
  });

  it('follows a policy changed after earlier changes were checked, though each check is prepared only once', async () => {
    const b = await subscribe(bob.client, 'bob-policy');
    const setReadPolicy = async (using: string) => {
      const db = await adminDb();
      try {
        await db.query(`alter policy "Owners read their notes" on public.${table} using (${using})`);
      } finally {
        await db.end();
      }
    };
    await alice.client.from(table).insert({ note: 'antes del cambio' });
    await bob.client.from(table).insert({ note: 'marca de bob 1' });
    await b.inbox.next(noteIs('marca de bob 1'));
    try {
      await setReadPolicy('true');
      await alice.client.from(table).insert({ note: 'con la política abierta' });
      await b.inbox.next(noteIs('con la política abierta'));
    } finally {
      await setReadPolicy('owner = (select auth.uid())');
    }
    await alice.client.from(table).insert({ note: 'con la política cerrada' });
    await bob.client.from(table).insert({ note: 'marca de bob 2' });
    await b.inbox.next(noteIs('marca de bob 2'));
    expect(b.inbox.events.some(noteIs('antes del cambio'))).toBe(false);
    expect(b.inbox.events.some(noteIs('con la política cerrada'))).toBe(false);
    await bob.client.removeChannel(b.channel);
  });

  it('delivers updates with the primary key as old record, and deletes with only the primary key', async () => {
    const a = await subscribe(alice.client, 'alice-changes');
    const inserted = await alice.client.from(table).insert({ note: 'para cambiar' }).select('id').single();
    const id = inserted.data!.id as number;
    await alice.client.from(table).update({ note: 'cambiada' }).eq('id', id);
    const update = await a.inbox.next((p) => p.eventType === 'UPDATE' && noteIs('cambiada')(p));
    expect(update.old).toEqual({ id });
    await alice.client.from(table).delete().eq('id', id);
    const deletion = await a.inbox.next((p) => p.eventType === 'DELETE' && (p.old as { id?: number }).id === id);
    expect(deletion.old).toEqual({ id });
    expect(deletion.new).toEqual({});
  });

  it('narrows delivery with an eq filter', async () => {
    const filtered = await subscribe(alice.client, 'alice-filtered', 'note=eq.importante');
    await alice.client.from(table).insert({ note: 'trivial' });
    await alice.client.from(table).insert({ note: 'importante' });
    await filtered.inbox.next(noteIs('importante'));
    expect(filtered.inbox.events.map((p) => (p.new as { note: string }).note)).toEqual(['importante']);
  });

  it('keeps delivering after the connection drops and after a token refresh', async () => {
    const a = await subscribe(alice.client, 'alice-reconnect');
    // The WebSocket under realtime-js's Phoenix socket; closing it abnormally is what a network drop looks like.
    const internals = alice.client.realtime as unknown as {
      socketAdapter: { socket: { conn: { close: (code: number, reason: string) => void } } };
    };
    const connection = internals.socketAdapter.socket.conn as unknown as WebSocket;
    const dropped = new Promise((resolve) => connection.addEventListener('close', resolve, { once: true }));
    internals.socketAdapter.socket.conn.close(3000, 'simulated network drop');
    await dropped;
    await expect
      .poll(() => alice.client.realtime.isConnected() && a.channel.state === 'joined', {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(true);
    await alice.client.from(table).insert({ note: 'tras reconectar' });
    await a.inbox.next(noteIs('tras reconectar'));

    const refreshed = await alice.client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    await alice.client.realtime.setAuth(refreshed.data.session!.access_token);
    await alice.client.from(table).insert({ note: 'tras refrescar' });
    await a.inbox.next(noteIs('tras refrescar'));
  });

  it('keeps delivering to the others while one subscriber stops reading its socket', async () => {
    const url = `${stackInfo().apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${stackInfo().anonKey}&vsn=2.0.0`;
    const stalled = new WebSocket(url);
    await new Promise((resolve, reject) => stalled.once('open', resolve).once('error', reject));
    const joinedReply = new Promise((resolve) => stalled.once('message', resolve));
    stalled.send(
      JSON.stringify([
        '1',
        '1',
        'realtime:stalled',
        'phx_join',
        {
          config: { postgres_changes: [{ event: '*', schema: 'public', table }] },
          access_token: alice.session.access_token,
        },
      ]),
    );
    await joinedReply;
    // Stop reading: the server's writes to this socket pile up instead of being consumed.
    (stalled as unknown as { _socket: { pause: () => void } })._socket.pause();
    try {
      const a = await subscribe(alice.client, 'alice-beside-stalled');
      for (let i = 0; i < 20; i++) await alice.client.from(table).insert({ note: `ráfaga ${i}` });
      await a.inbox.next(noteIs('ráfaga 19'));
      expect(a.inbox.events.filter((p) => /^ráfaga/.test((p.new as { note: string }).note))).toHaveLength(20);
    } finally {
      stalled.terminate();
    }
  });

  it('reports a table outside the publication as a system error', async () => {
    const message = await new Promise<{ status: string; message: string }>((resolve) => {
      alice.client
        .channel('not-published')
        .on('system', {}, (payload) => resolve(payload as { status: string; message: string }))
        .on('postgres_changes', { event: '*', schema: 'public', table: 'no_such_table' }, () => {})
        .subscribe();
    });
    expect(message.status).toBe('error');
    expect(message.message).toMatch(/Unable to subscribe to changes/);
  });

  it('reports a filter on a column the subscriber cannot read as a system error', async () => {
    const message = await new Promise<{ status: string; message: string }>((resolve) => {
      alice.client
        .channel('bad-filter')
        .on('system', {}, (payload) => resolve(payload as { status: string; message: string }))
        .on('postgres_changes', { event: '*', schema: 'public', table: kinds, filter: 'secret=eq.x' }, () => {})
        .subscribe();
    });
    expect(message.status).toBe('error');
    expect(message.message).toMatch(/invalid column for filter secret/);
  });
});

describe('postgres_changes values, privileges and replica identity', () => {
  it('sends JSON-typed values as Postgres prints them, without columns the role cannot read', async () => {
    const a = await subscribe(alice.client, 'alice-kinds', undefined, kinds);
    const inserted = await alice.client
      .from(kinds)
      .insert({
        amount: 12.5,
        happened_at: '2026-11-22T11:09:00.123456Z',
        tags: ['uno', 'dos tres'],
        details: { nested: { n: 1 } },
        done: true,
        secret: 'no se ve',
      })
      .select('id, amount, happened_at, tags, details, done')
      .single();
    expect(inserted.error).toBeNull();
    const row = inserted.data!;
    const received = await a.inbox.next((p) => p.eventType === 'INSERT' && p.new.id === row.id);
    // The same values PostgREST returns for the row (microseconds and offset included), minus `secret`.
    expect(received.new).toEqual({ ...row, owner: alice.user.id });
    expect(received.new).not.toHaveProperty('secret');
  });

  it('carries the full old row under REPLICA IDENTITY FULL, and only the key of a deleted row under RLS', async () => {
    const a = await subscribe(alice.client, 'alice-full', undefined, kinds);
    const b = await subscribe(bob.client, 'bob-full', undefined, kinds);
    const inserted = await alice.client.from(kinds).insert({ amount: 1, secret: 'x' }).select('id').single();
    const id = inserted.data!.id as number;
    await alice.client.from(kinds).update({ amount: 2 }).eq('id', id);
    const update = await a.inbox.next((p) => p.eventType === 'UPDATE' && p.new.id === id);
    expect(update.old).toMatchObject({ id, amount: 1, owner: alice.user.id, done: false });
    expect(update.old).not.toHaveProperty('secret');
    expect(update.new).toMatchObject({ id, amount: 2 });

    await alice.client.from(kinds).delete().eq('id', id);
    // DELETE is not RLS-checked (the row is gone): every subscriber gets it, with the key only.
    const [aliceSaw, bobSaw] = await Promise.all([
      a.inbox.next((p) => p.eventType === 'DELETE' && p.old.id === id),
      b.inbox.next((p) => p.eventType === 'DELETE' && p.old.id === id),
    ]);
    expect(aliceSaw.old).toEqual({ id });
    expect(bobSaw.old).toEqual({ id });
    expect(b.inbox.events.filter((p) => p.eventType !== 'DELETE')).toEqual([]);
  });

  it('compares filter values as the column type', async () => {
    const filtered = await subscribe(alice.client, 'alice-amount', 'amount=gt.10', kinds);
    await alice.client.from(kinds).insert({ amount: 9.5 });
    await alice.client.from(kinds).insert({ amount: 100 });
    await filtered.inbox.next((p) => p.eventType === 'INSERT' && p.new.amount === 100);
    expect(filtered.inbox.events.map((p) => (p.new as { amount?: number }).amount)).toEqual([100]);
  });
});
