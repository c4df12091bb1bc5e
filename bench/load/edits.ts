import { sleep, type Metrics } from './metrics.ts';
import type { Person } from './staff.ts';

/**
 * Saving a file's texts and tags as the file form does: it sends what it read (the row's updated_at, its tags
 * and, for admins, its collections) and the database refuses the save when anything of it changed since. A
 * refused save must say 'Otra persona ha cambiado este archivo'; the person then takes the other version and
 * makes their change again, as the form's conflict panel offers. Every save the server accepted is kept in a
 * ledger, so that the end of the run can prove none overwrote another unseen.
 */
export const CONFLICT_MESSAGE = 'Otra persona ha cambiado este archivo';

export interface AcceptedSave {
  fileId: string;
  by: string;
  /** The version the form read and sent as its expectation. */
  expected: string;
  /** The version the save produced. */
  saved: string;
  nameEs: string;
}

export class EditLedger {
  readonly accepted: AcceptedSave[] = [];
  conflicts = 0;
  /** Conflicts answered with anything but the app's sentence (must stay empty). */
  readonly wrongConflictAnswers: string[] = [];
  /** Saves whose answer never arrived (the connection was cut): written or not, the person cannot know. */
  readonly unanswered: Array<{ fileId: string; nameEs: string }> = [];
}

interface FormRead {
  updated_at: string;
  name_es: string;
  file_tags: Array<{ tag_id: string }>;
  collection_files: Array<{ collection_id: string }>;
}

// What the file's detail reads, as the app asks it.
const DETAIL = '*, file_tags(tag_id), collection_files(collection_id)';

/** Opens a file's detail (timed as 'open a file'); null when the person saw an error instead. */
export async function openFile(person: Person, metrics: Metrics, fileId: string): Promise<FormRead | null> {
  return metrics.read('open a file', () =>
    person.client.from('files').select(DETAIL).eq('id', fileId).single<FormRead>(),
  );
}

const isConflict = (error: { hint?: string; message?: string }) => error.hint === 'FILE_CHANGED';

/**
 * Opens the file, types for a while (`typingMs`: long enough for others to save meanwhile), toggles one tag
 * and saves. On a conflict, reads the other version and saves again on it, up to three times.
 */
export async function editFile(
  person: Person,
  metrics: Metrics,
  ledger: EditLedger,
  edit: { fileId: string; tagPool: string[]; typingMs: number },
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const read = await openFile(person, metrics, edit.fileId);
    if (!read) return;
    await sleep(attempt === 0 ? edit.typingMs : 300);
    const base = read.name_es.split(' · ')[0]!;
    const nameEs = `${base} · ${person.name} ${crypto.randomUUID().slice(0, 6)}`;
    const tags = read.file_tags.map((link) => link.tag_id);
    const toggled = edit.tagPool[Math.floor(Math.random() * edit.tagPool.length)]!;
    const tagIds = tags.includes(toggled) ? tags.filter((id) => id !== toggled) : [...tags, toggled];
    const collections = read.collection_files.map((link) => link.collection_id);
    const admin = person.role === 'ADMIN';
    const started = performance.now();
    const { data, error } = await person.client
      .rpc('update_file', {
        p_file_id: edit.fileId,
        p_name_es: nameEs,
        p_name_en: read.name_es,
        p_description_es: `Editado por ${person.name}`,
        p_description_en: `Edited by ${person.name}`,
        p_tag_ids: tagIds,
        ...(admin ? { p_collection_ids: collections } : {}),
        p_expected_updated_at: read.updated_at,
        p_expected_tag_ids: tags,
        ...(admin ? { p_expected_collection_ids: collections } : {}),
      })
      .single<{ updated_at: string }>();
    metrics.record('save a file (update_file)', performance.now() - started);
    if (!error) {
      ledger.accepted.push({
        fileId: edit.fileId,
        by: person.name,
        expected: read.updated_at,
        saved: data.updated_at,
        nameEs,
      });
      return;
    }
    if (!isConflict(error)) {
      metrics.personSaw('save a file', error);
      if (!error.code) ledger.unanswered.push({ fileId: edit.fileId, nameEs });
      return;
    }
    ledger.conflicts += 1;
    if (error.message !== CONFLICT_MESSAGE) ledger.wrongConflictAnswers.push(error.message);
  }
}

/** Microseconds since the epoch of a timestamptz as PostgREST writes it (trailing zeros of the fraction cut). */
export function micros(timestamp: string): bigint {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(timestamp);
  if (!match) throw new Error(`not a timestamp: ${timestamp}`);
  const seconds = BigInt(Date.parse(`${match[1]}${match[3] || 'Z'}`)) * 1000n;
  return seconds + BigInt((match[2] ?? '').padEnd(6, '0').slice(0, 6));
}
