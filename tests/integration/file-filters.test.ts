import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { adminDb, signedInSeed } from '../helpers/clients.ts';
import { CHOICE_KEYS, FILE_FILTERS, type FilterKey } from '../../src/features/files/api/file-filters.ts';

/**
 * The files screen's one table of filters (src/features/files/api/file-filters.ts) against the SQL that applies
 * them (private.file_filter_parts, which every search, count and bulk action reads): the same keys, the same values for every fixed choice, and every value
 * the table offers accepted by search_files. A filter added, renamed or given a value on one side
 * only fails here instead of being dropped silently by the URL parser or refused by the database.
 */

let db: pg.Client;
let admin: SupabaseClient;
let definition = '';

beforeAll(async () => {
  db = await adminDb();
  admin = await signedInSeed('ADMIN');
  const { rows } = await db.query<{ source: string }>(
    "select pg_get_functiondef('private.file_filter_parts(jsonb)'::regprocedure) as source",
  );
  definition = rows[0]!.source;
});

afterAll(async () => {
  await db?.end();
});

/** The values each `case coalesce(p_filter ->> 'key', 'all') when 'value' …` of the SQL accepts. */
function sqlChoices(): Map<string, string[]> {
  const choices = new Map<string, string[]>();
  const cases = definition.matchAll(/case coalesce\(p_filter ->> '([^']+)', 'all'\)([\s\S]*?)end case;/g);
  for (const [, key, body] of cases) {
    const values = [...body!.matchAll(/when '([^']+)' then/g)].map((match) => match[1]!).filter((v) => v !== 'all');
    choices.set(key!, values);
  }
  return choices;
}

describe('the filter table and private.file_filter_parts', () => {
  it('read the same keys', () => {
    const sqlKeys = new Set([...definition.matchAll(/p_filter ->> '([^']+)'/g)].map((match) => match[1]!));
    expect([...sqlKeys].sort()).toEqual(Object.keys(FILE_FILTERS).sort());
  });

  it('offer the same values for every fixed choice', () => {
    const sql = sqlChoices();
    expect([...sql.keys()].sort()).toEqual([...CHOICE_KEYS].sort());
    for (const key of CHOICE_KEYS) {
      expect(
        FILE_FILTERS[key].choices.map((choice) => choice.value),
        key,
      ).toEqual(sql.get(key));
    }
  });

  it('accept every value the table offers, and refuse one it does not', async () => {
    const samples: Array<[FilterKey, string]> = [
      ['query', 'piscina'],
      ['tagId', 'd0000000-0000-4000-8000-000000000001'],
      ['collectionId', 'e0000000-0000-4000-8000-000000000001'],
      ...CHOICE_KEYS.flatMap((key) =>
        FILE_FILTERS[key].choices.map((choice) => [key, choice.value] as [FilterKey, string]),
      ),
    ];
    for (const [key, value] of samples) {
      const { error } = await admin.rpc('count_files', { p_filter: { [key]: value } });
      expect(error, `${key}=${value}`).toBeNull();
    }
    const refused = await admin.rpc('count_files', { p_filter: { type: 'video' } });
    expect(refused.error?.code).toBe('22023');
  });
});
