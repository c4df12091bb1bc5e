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
    // Unpublished files: a change to a published file also queues the public feed's regeneration, which at 1M
    // reads ~800k files for minutes (its own issue) and would run beside the next timed call.
    const { rows } = await db.query<{ id: string }>(
      'select id from public.files where not published order by random() limit $1',
      [count],
    );
    return rows.map((row) => row.id);
  } finally {
    await db.end();
  }
}

/**
 * Waits, untimed, until the server jobs the previous write queued have run, so the worker doing them is not
 * timed as part of the next write. Inserting files queues their post-processing, which cannot succeed here
 * (no object was uploaded for them) and is dropped; a tag edit queues the analytics refresh (1 min later),
 * which is made due now and waited for. A job that fails goes back to the queue for later and does not hold
 * the wait.
 */
async function settleServerJobs(adminDbUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: adminDbUrl });
  await db.connect();
  try {
    await db.query(`delete from public.server_jobs where kind = 'process_upload' and state = 'pending'`);
    await db.query(
      `update public.server_jobs set run_after = now() where state = 'pending' and attempts = 0 and run_after > now()`,
    );
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const { rows } = await db.query<{ busy: number }>(
        `select count(*)::int as busy from public.server_jobs
          where state = 'running' or (state = 'pending' and run_after <= now() and attempts = 0)`,
      );
      if (rows[0]!.busy === 0) return;
      if (Date.now() > deadline) throw new Error(`server jobs still busy after 10 minutes: ${rows[0]!.busy}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
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
  const settle = () => settleServerJobs(adminDbUrl);
  return {
    insert: await timeRuns(runs, insertThousand, 1, settle),
    tag: await timeRuns(runs, tagTenThousand, 1, settle),
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
