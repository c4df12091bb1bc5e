import type { StackEndpoints } from '../lib/stack-process.ts';
import { editFile, openFile, type EditLedger } from './edits.ts';
import { pick, sleep, thinkTime, type Metrics } from './metrics.ts';
import type { Person } from './staff.ts';
import { uploadFile, type SentUpload, type UploadPool } from './uploads.ts';
import { scroll, search, type Browsing } from './browsing.ts';

/**
 * What each simulated person does until the run ends, with a person's pauses between actions: uploaders
 * search and scroll their files, open and edit them and upload new ones (in the background, as the app
 * keeps uploading while they browse); admins search the whole library, edit a few shared files that others
 * are editing too (the conflicts are on purpose), tag selections in bulk and correct new uploads.
 */
export interface Workplace {
  stack: StackEndpoints;
  metrics: Metrics;
  ledger: EditLedger;
  uploads: SentUpload[];
  /** Files every admin edits, so that saves cross. */
  sharedFiles: string[];
  tagIds: string[];
  words: string[];
  pool: UploadPool;
  /** Date.now() when people stop starting new actions. */
  until: number;
}

async function bulkTag(person: Person, place: Workplace, browsing: Browsing) {
  const ids = browsing.loaded.slice(0, 20).map((row) => row.id);
  if (ids.length === 0) return;
  const tags = [pick(place.tagIds), pick(place.tagIds)];
  try {
    const { error } = await place.metrics.time('bulk tag 20 files (set_files_tags)', () =>
      person.client.rpc('set_files_tags', { p_tag_ids: [...new Set(tags)], p_file_ids: ids }),
    );
    if (error) place.metrics.personSaw('bulk tag', error);
  } catch (error) {
    place.metrics.personSaw('bulk tag', error);
  }
}

/** Uploads one after another, every 1.5–3.5 minutes, the first within the first minute. */
async function keepUploading(person: Person, place: Workplace) {
  // Pauses end with the run: nobody starts an upload after it, and nobody waits for the next one.
  const pause = (ms: number) => sleep(Math.max(0, Math.min(ms, place.until - Date.now())));
  await pause(Math.random() * 60_000);
  while (Date.now() < place.until) {
    const sent = await uploadFile(place.stack, person, place.metrics, place.pool);
    if (sent) place.uploads.push(sent);
    await pause(90_000 + Math.random() * 120_000);
  }
}

export async function uploaderDay(person: Person, place: Workplace) {
  const uploading = keepUploading(person, place);
  let browsing = await search(person, place.metrics, {});
  while (Date.now() < place.until) {
    await thinkTime();
    const roll = Math.random();
    const own = place.uploads.filter((upload) => browsing.loaded.some((row) => row.id === upload.fileId));
    if (roll < 0.3)
      browsing = await search(person, place.metrics, Math.random() < 0.5 ? {} : { query: pick(place.words) });
    else if (roll < 0.55) browsing = await scroll(person, place.metrics, browsing);
    else if (roll < 0.8 && browsing.loaded.length) await openFile(person, place.metrics, pick(browsing.loaded).id);
    else if (own.length)
      await editFile(person, place.metrics, place.ledger, {
        fileId: pick(own).fileId,
        tagPool: place.tagIds,
        typingMs: 1000 + Math.random() * 3000,
      });
  }
  await uploading;
}

export async function adminDay(person: Person, place: Workplace) {
  let browsing = await search(person, place.metrics, { query: pick(place.words) });
  while (Date.now() < place.until) {
    await thinkTime();
    const roll = Math.random();
    if (roll < 0.25) browsing = await search(person, place.metrics, { query: pick(place.words) });
    else if (roll < 0.4) browsing = await scroll(person, place.metrics, browsing);
    else if (roll < 0.55 && browsing.loaded.length) await openFile(person, place.metrics, pick(browsing.loaded).id);
    else if (roll < 0.85)
      await editFile(person, place.metrics, place.ledger, {
        fileId: pick(place.sharedFiles),
        tagPool: place.tagIds,
        typingMs: 1000 + Math.random() * 4000,
      });
    else if (roll < 0.95) await bulkTag(person, place, browsing);
    else if (place.uploads.length)
      await editFile(person, place.metrics, place.ledger, {
        fileId: pick(place.uploads.slice(-20)).fileId,
        tagPool: place.tagIds,
        typingMs: 1000 + Math.random() * 3000,
      });
  }
}
