import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { sizeLabel, libraryFiles, isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * Writes as the library grows, on one stack in one run: inserting 1,000 files in one request (what an import
 * or a burst of uploads writes) and replacing the tags of 10,000 files (set_files_tags, 'Editar tags' on a
 * selection), first with a tenth of the library loaded and then with all of it. What makes search and counts
 * fast (the search terms, the tag counters, the covering tag index) is maintained on every write, so it must
 * not make writes grow with the library: the goal is the large library within 1.5× the small one.
 */

async function sampleFileIds(adminDbUrl: string, count: number): Promise<string[]> {
  const db = new pg.Client({ connectionString: adminDbUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>('select id from public.files tablesample system (20) limit $1', [
      count,
    ]);
    return rows.map((row) => row.id);
  } finally {
    await db.end();
  }
}

async function twoTagSets(client: SupabaseClient): Promise<[string[], string[]]> {
  const { data, error } = await client.from('tags').select('id').order('id').limit(4);
  if (error) throw error;
  const ids = data.map((row) => row.id as string);
  return [ids.slice(0, 2), ids.slice(2, 4)];
}

async function measureWrites(adminDbUrl: string, client: SupabaseClient, runs: number) {
  let batch = 0;
  const insertThousand = async () => {
    batch += 1;
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const id = crypto.randomUUID();
      return {
        id,
        file_name: `${id}.jpg`,
        object_path: `${id}/${id}.jpg`,
        original_file_name: `importacion-${batch}-${i}.jpg`,
        name_es: `Importación ${batch} foto ${i} piscina`,
        name_en: `Import ${batch} photo ${i} pool`,
        description_es: 'Vista de la terraza al atardecer',
        extension: 'jpg',
      };
    });
    const { error } = await client.from('files').insert(rows);
    if (error) throw error;
  };
  const ids = await sampleFileIds(adminDbUrl, 10_000);
  const tagSets = await twoTagSets(client);
  let round = 0;
  const tagTenThousand = async () => {
    round += 1;
    const { error } = await client.rpc('set_files_tags', { p_tag_ids: tagSets[round % 2], p_file_ids: ids });
    if (error) throw error;
  };
  return {
    insert: await timeRuns(runs, insertThousand, 1),
    tag: await timeRuns(runs, tagTenThousand, 1),
  };
}

export async function run(): Promise<BenchRow[]> {
  const files = libraryFiles();
  const small = Math.round(files / 10);
  const runs = isQuick() ? 3 : 7;
  return withStack(async (stack) => {
    const { client } = await signedInAdmin(stack);
    progress('writes', `generating ${small} files`);
    await generateDataset(stack.adminDbUrl, { files: small });
    progress('writes', `timing writes at ${sizeLabel(small)}`);
    const before = await measureWrites(stack.adminDbUrl, client, runs);
    progress('writes', `growing the library to ${files} files`);
    await generateDataset(stack.adminDbUrl, { files: files - small, seed: 7 });
    progress('writes', `timing writes at ${sizeLabel(files)}`);
    const after = await measureWrites(stack.adminDbUrl, client, runs);
    const rows: BenchRow[] = [];
    for (const [label, key] of [
      ['insert 1,000 files in one request', 'insert'],
      ['replace the tags of 10,000 files (set_files_tags)', 'tag'],
    ] as const) {
      rows.push({
        metric: `${label} at ${sizeLabel(files)}, median`,
        unit: 'ms',
        value: percentile(after[key], 50),
        baseline: percentile(before[key], 50),
        baselineLabel: `the same at ${sizeLabel(small)}`,
        goal: `≤ 1.5× the ${sizeLabel(small)} figure`,
        higherIsBetter: false,
      });
    }
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('writes', await run());
}
