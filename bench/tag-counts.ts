import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sizeLabel, libraryFiles, isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * The Etiquetas screen's file counts (tag_file_counts: read from the counters kept by trigger) at 100k files and
 * ~400k tag links (10k with --quick), as an admin through the API, against a primary-key lookup through
 * the same API path in the same run.
 */
export async function run(): Promise<BenchRow[]> {
  const files = libraryFiles();
  const runs = isQuick() ? 20 : 50;
  return withStack(async (stack) => {
    progress('tag-counts', `generating ${files} files`);
    await generateDataset(stack.adminDbUrl, { files });
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    let links = 0;
    try {
      await db.query('analyze public.file_tags');
      links = Number((await db.query('select count(*) from public.file_tags')).rows[0].count);
    } finally {
      await db.end();
    }
    progress('tag-counts', `${links} tag links`);
    const { client } = await signedInAdmin(stack);
    const anyTag = (await client.from('tags').select('id').limit(1).single()).data!.id as string;
    const counts = await timeRuns(runs, async () => {
      const { error } = await client.rpc('tag_file_counts');
      if (error) throw error;
    });
    const baseline = await timeRuns(runs, async () => {
      const { error } = await client.from('tags').select('*').eq('id', anyTag).single();
      if (error) throw error;
    });
    return [50, 95].map((p) => ({
      metric: `tag_file_counts at ${sizeLabel(files)} files / ${Math.round(links / 1000)}k links, p${p}`,
      unit: 'ms',
      value: percentile(counts, p),
      baseline: percentile(baseline, p),
      baselineLabel: 'PK lookup via API',
      goal: p === 95 ? (files >= 1_000_000 ? 'p95 ≤ 60 ms' : 'p95 ≤ 25 ms') : '—',
      higherIsBetter: false,
    }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('tag-counts', await run());
}
