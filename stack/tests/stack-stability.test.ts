import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { clientFor } from '../../tests/helpers/clients.ts';
import { seedAccounts } from '../../tests/helpers/seed.ts';
import { startStack, type RunningStack } from '../src/stack.ts';

/**
 * Ten minutes of ordinary use on a stack of its own, counting restarts: PostgREST says "Starting PostgREST"
 * once (at start) and never again, no process of the stack stops, and nothing asks PostgREST to reload its
 * schema (a reload runs PostgREST's whole connection worker again and flushes its pool). Ordinary use is
 * what people do all day, through the official clients: signing in, searching and counting, opening a file,
 * editing its texts and tags (which refreshes the analysts' views), uploading a picture that is then
 * processed, with a realtime subscription open throughout. One round every few seconds keeps it cheap on a
 * 2-core CI machine; STACK_STABILITY_MINUTES shortens it for a local try.
 */

const MINUTES = Number(process.env.STACK_STABILITY_MINUTES ?? 10);
const ROUND_EVERY_MS = 3000;

let stack: RunningStack;
const log: Array<{ at: number; line: string }> = [];
let listener: pg.Client;
const schemaReloads: string[] = [];

beforeAll(async () => {
  stack = await startStack({ ephemeral: true, seed: true, log: (line) => log.push({ at: Date.now(), line }) });
  // Every schema reload request PostgREST would act on.
  listener = new pg.Client({ connectionString: stack.adminDbUrl });
  await listener.connect();
  listener.on('notification', (message) => schemaReloads.push(`${message.channel}: ${message.payload ?? ''}`));
  await listener.query('listen pgrst');
}, 300_000);

afterAll(async () => {
  await listener?.end();
  await stack?.stop();
});

async function signedIn(role: 'ADMIN' | 'UPLOADER'): Promise<SupabaseClient> {
  const supabase = clientFor(stack.apiUrl, stack.anonKey);
  const { email, password } = seedAccounts[role];
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

/** One round of what a person does; every call must succeed. */
async function ordinaryUse(round: number, admin: SupabaseClient, uploader: SupabaseClient, tagIds: string[]) {
  const failures: string[] = [];
  const check = (what: string, error: { message: string } | null) => {
    if (error) failures.push(`${what}: ${error.message}`);
  };
  const page = await admin.rpc('search_files', { p_filter: {}, p_limit: 50 }).select('id, updated_at');
  check('search', page.error);
  check('count', (await admin.rpc('count_files', { p_filter: { type: 'image' } })).error);
  check('search a word', (await admin.rpc('search_files', { p_filter: { query: 'piscina' }, p_limit: 20 })).error);
  const files = (page.data ?? []) as Array<{ id: string }>;
  const file = files[round % Math.max(files.length, 1)];
  if (file) {
    check('detail', (await admin.from('files').select('*, file_tags(tag_id)').eq('id', file.id).single()).error);
    check(
      'edit texts and tags',
      (
        await admin.rpc('update_file', {
          p_file_id: file.id,
          p_tag_ids: tagIds.slice(0, 1 + (round % tagIds.length)),
          p_description_es: `Revisado en la ronda ${round}`,
        })
      ).error,
    );
  }
  if (round % 5 === 0) {
    // An uploader's picture, stored and recorded as the upload screen does; the server processes it.
    const id = crypto.randomUUID();
    const objectPath = `${id}/${crypto.randomUUID()}.jpg`;
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0084D8' } })
      .jpeg()
      .toBuffer();
    check(
      'upload',
      (await uploader.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' })).error,
    );
    check(
      'record',
      (
        await uploader.from('files').insert({
          id,
          file_name: objectPath.split('/')[1],
          object_path: objectPath,
          original_file_name: `ronda-${round}.jpg`,
          name_es: `ronda ${round}`,
          name_en: `ronda ${round}`,
          extension: 'jpg',
          processing: true,
        })
      ).error,
    );
  }
  if (round % 10 === 0) {
    const again = await signedIn('ADMIN');
    check('sign out', (await again.auth.signOut()).error);
  }
  return failures;
}

describe('the stack under ordinary use', () => {
  it(
    `runs ${MINUTES} minutes without restarting or reloading any process`,
    async () => {
      const admin = await signedIn('ADMIN');
      const uploader = await signedIn('UPLOADER');
      const tags = await admin.from('tags').select('id').limit(4);
      expect(tags.error).toBeNull();
      const tagIds = (tags.data ?? []).map((tag) => tag.id as string);
      const changes: string[] = [];
      const channel = admin
        .channel('stability')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'files' }, (change) => {
          changes.push(change.eventType);
        });
      await new Promise<void>((resolve, reject) => {
        channel.subscribe((status) => (status === 'SUBSCRIBED' ? resolve() : status === 'CHANNEL_ERROR' && reject()));
      });

      const startedAt = Date.now();
      const afterStart = log.length;
      const failures: string[] = [];
      let rounds = 0;
      while (Date.now() - startedAt < MINUTES * 60_000) {
        const roundStart = Date.now();
        failures.push(...(await ordinaryUse(rounds, admin, uploader, tagIds)));
        rounds++;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, ROUND_EVERY_MS - (Date.now() - roundStart))));
      }
      await admin.removeChannel(channel);

      const during = log.slice(afterStart).map((entry) => entry.line);
      expect(failures).toEqual([]);
      expect(rounds).toBeGreaterThan(MINUTES * 10);
      expect(changes.length).toBeGreaterThan(0);
      // Restarts, reconnects and reloads: none.
      const starts = log.filter((entry) => entry.line.includes('Starting PostgREST'));
      expect(starts.map((entry) => `${entry.at - startedAt} ms: ${entry.line}`)).toHaveLength(1);
      expect(
        during.filter((line) => /Starting PostgREST|Attempting to (re)?connect|Schema cache loaded/.test(line)),
      ).toEqual([]);
      expect(during.filter((line) => /stopped unexpectedly|exited \(|restarting|listener lost/.test(line))).toEqual([]);
      expect(schemaReloads).toEqual([]);
    },
    (MINUTES + 2) * 60_000,
  );
});
