import type { StackEndpoints } from '../lib/stack-process.ts';
import { editFile, openFile, type EditLedger } from './edits.ts';
import { pick, type Metrics } from './metrics.ts';
import { subscribe } from './subscribers.ts';
import { scroll, search } from './browsing.ts';
import { signIn, signOut, type Person } from './staff.ts';
import { uploadFile, type SentUpload, type UploadPool } from './uploads.ts';

/**
 * The one-user figures, measured in the same run on the same stack right before the load: one admin alone
 * does each kind of request one after another (no pauses), with their own live channel open, so that each
 * p95 under load has its own baseline from the same machine at the same moment of its day. 60 rounds, so that
 * each p95 rests on 60–120 calls (with 20, a file opened was the 38th of 40 calls, and one slow call moved it).
 */
const RUNS = 60;

export async function oneUser(
  stack: StackEndpoints,
  account: Omit<Person, 'client'>,
  metrics: Metrics,
  context: { ledger: EditLedger; files: string[]; tagIds: string[]; words: string[]; pool: UploadPool },
): Promise<SentUpload[]> {
  metrics.phase = 'one user';
  let person: Person | null = null;
  for (let i = 0; i < 5; i++) {
    if (person) await signOut(person);
    person = await signIn(stack, account, metrics);
    if (!person) throw new Error(`${account.name} could not sign in alone`);
  }
  const me = person!;
  const [subscriber] = await subscribe([me], metrics, Date.now());
  for (let i = 0; i < RUNS; i++) {
    // The same reads the people make: a search (the whole library or a word, as uploaders alternate), its next
    // page, and a file of what was loaded.
    const browsing = await search(me, metrics, i % 2 === 0 ? { query: pick(context.words) } : {});
    const scrolled = await scroll(me, metrics, browsing);
    await openFile(me, metrics, scrolled.loaded.length ? pick(scrolled.loaded).id : pick(context.files));
    // Alone, no save can conflict: the ledger proves it the same way as under load.
    await editFile(me, metrics, context.ledger, { fileId: context.files[i]!, tagPool: context.tagIds, typingMs: 0 });
    if (i % 2 === 0) {
      const { error } = await metrics.time('bulk tag 20 files (set_files_tags)', () =>
        me.client.rpc('set_files_tags', {
          p_tag_ids: [pick(context.tagIds)],
          p_file_ids: context.files.slice(RUNS, RUNS + 20),
        }),
      );
      if (error) metrics.personSaw('bulk tag', error);
    }
  }
  const uploads: SentUpload[] = [];
  for (let i = 0; i < 2; i++) {
    const sent = await uploadFile(stack, me, metrics, context.pool);
    if (sent) uploads.push(sent);
  }
  await me.client.removeChannel(subscriber!.channel);
  await signOut(me);
  return uploads;
}
