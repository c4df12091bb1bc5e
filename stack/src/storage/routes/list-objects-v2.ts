import type { Pool } from 'pg';
import { asCaller, type Caller } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { errors } from '../errors.ts';
import { getBucket } from '../objects.ts';

/**
 * `POST /object/list-v2/{bucket}` (storage-js `listV2`), as storage-api's `listObjectsV2` answers it: full
 * object names under `prefix`, optionally folded into folders at the next `/` (`with_delimiter`), at most
 * `limit` (≤ 1000) entries and an opaque `nextCursor` to continue. RLS on storage.objects decides what the
 * caller sees. The cursor has storage-api's format (base64 of `l:<start after>\no:<order>\nc:<column>\na:<value>`).
 */

type SortColumn = 'name' | 'updated_at' | 'created_at';

interface Cursor {
  startAfter: string;
  order: 'asc' | 'desc';
  column: SortColumn;
  columnAfter?: string;
}

interface Row {
  id: string;
  name: string;
  updated_at: Date;
  created_at: Date;
  last_accessed_at: Date | null;
  metadata: unknown;
}

type Entry = { folder: string } | { object: Row };

const CURSOR_PARTS: Record<string, keyof Cursor> = { l: 'startAfter', o: 'order', c: 'column', a: 'columnAfter' };
const SORT_COLUMNS = new Set<SortColumn>(['name', 'updated_at', 'created_at']);

function encodeCursor(cursor: Cursor): string {
  const lines = Object.entries(CURSOR_PARTS)
    .filter(([, key]) => cursor[key])
    .map(([part, key]) => `${part}:${cursor[key]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(token: string): Partial<Cursor> {
  const cursor: Record<string, string> = {};
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)/.exec(line);
    const key = match ? CURSOR_PARTS[match[1]!] : undefined;
    if (!match || !key) throw errors.invalidRequest('Invalid continuation token');
    cursor[key] = match[2]!;
  }
  return cursor as Partial<Cursor>;
}

function sortOf(body: Record<string, unknown>, cursor: Partial<Cursor>): Pick<Cursor, 'order' | 'column'> {
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = (cursor.column ?? sortBy.column ?? 'name') as SortColumn;
  const order = (cursor.order ?? sortBy.order ?? 'asc') === 'desc' ? 'desc' : 'asc';
  if (!SORT_COLUMNS.has(column))
    throw errors.invalidRequest('body/sortBy/column must be equal to one of the allowed values');
  return { column, order };
}

async function listObjectsV2(pool: Pool, who: Caller, bucketId: string, body: Record<string, unknown>) {
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  if (body.limit !== undefined && (!Number.isInteger(body.limit) || (body.limit as number) < 1)) {
    throw errors.invalidRequest('body/limit must be >= 1');
  }
  const limit = Math.min((body.limit as number | undefined) ?? 1000, 1000);
  const cursor = typeof body.cursor === 'string' && body.cursor ? decodeCursor(body.cursor) : {};
  const { column, order } = sortOf(body, cursor);
  const withDelimiter = body.with_delimiter === true;

  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await asCaller(pool, who, 'storage.object.list', (db) =>
    db.query<Row>(
      `select id, name, updated_at, created_at, last_accessed_at, metadata
         from storage.objects
        where bucket_id = $1 and name like $2 escape '\\'
        order by ${column === 'name' ? '' : `${column} ${order},`} name collate "C" ${order}`,
      [bucketId, like],
    ),
  );

  // Entries after the cursor: by name, or by (column, name) when sorting by a date.
  const after = (row: Row): boolean => {
    if (!cursor.startAfter) return true;
    const byName = order === 'asc' ? row.name > cursor.startAfter : row.name < cursor.startAfter;
    if (column === 'name' || !cursor.columnAfter) return byName && !row.name.startsWith(cursor.startAfter);
    const value = row[column].getTime();
    const pivot = new Date(cursor.columnAfter).getTime();
    if (value !== pivot) return order === 'asc' ? value > pivot : value < pivot;
    return byName && !row.name.startsWith(cursor.startAfter);
  };

  const entries: Entry[] = [];
  const seenFolders = new Set<string>();
  for (const row of rows) {
    if (!after(row)) continue;
    const slash = withDelimiter ? row.name.indexOf('/', prefix.length) : -1;
    if (slash < 0) {
      entries.push({ object: row });
      continue;
    }
    const folder = row.name.slice(0, slash + 1);
    if (seenFolders.has(folder) || folder === cursor.startAfter) continue;
    seenFolders.add(folder);
    entries.push({ folder });
  }

  const page = entries.slice(0, limit);
  const hasNext = entries.length > limit;
  const last = page.at(-1);
  let nextCursor: string | undefined;
  if (hasNext && last) {
    const startAfter = 'folder' in last ? last.folder : last.object.name;
    const columnAfter = 'object' in last && column !== 'name' ? last.object[column].toISOString() : undefined;
    nextCursor = encodeCursor({ startAfter, order, column, columnAfter });
  }
  const segment = (name: string) => name.replace(/\/$/, '').split('/').at(-1) ?? name;
  return {
    hasNext,
    nextCursor,
    folders: page.flatMap((entry) => ('folder' in entry ? [{ key: segment(entry.folder), name: entry.folder }] : [])),
    objects: page.flatMap((entry) => ('object' in entry ? [{ ...entry.object, key: segment(entry.object.name) }] : [])),
  };
}

export const listObjectsV2Route: StorageRoute = (app, { pool, caller }) =>
  app.post('/object/list-v2/:bucket', async (c) => {
    const bucketId = c.req.param('bucket');
    const who = await caller(c);
    await getBucket(pool, bucketId);
    return json(c, await listObjectsV2(pool, who, bucketId, await readJson(c)));
  });
