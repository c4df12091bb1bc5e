import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sizeLabel, libraryFiles, isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, timeRuns, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * Every analytics view read whole (`select *`, all rows fetched, as a BI tool does) by the analyst_local
 * login at 100k files (10k with --quick), against one pass over the files table in the same run: the
 * floor for any report that looks at every file.
 */

const VIEWS = [
  'files_by_month',
  'publication_state',
  'tag_usage',
  'tag_category_coverage',
  'untagged_files',
  'collections',
  'missing_translations',
  'academy_videos',
  'academy_members',
  'academy_private_grants',
  'uploads_per_day',
];

export async function run(): Promise<BenchRow[]> {
  const files = libraryFiles();
  const runs = isQuick() ? 20 : 50;
  return withStack(async (stack) => {
    if (!stack.analystDbUrl) throw new Error('the migrations define no analyst role');
    progress('analytics', `generating ${files} files`);
    const dataset = await generateDataset(stack.adminDbUrl, { files });
    const analyst = new pg.Client({ connectionString: stack.analystDbUrl });
    const admin = new pg.Client({ connectionString: stack.adminDbUrl });
    await analyst.connect();
    await admin.connect();
    try {
      const measured: Array<[string, number[], number]> = [];
      for (const view of VIEWS) {
        const rowCount = (await analyst.query(`select * from analytics.${view}`)).rowCount ?? 0;
        const samples = await timeRuns(runs, () => analyst.query(`select * from analytics.${view}`));
        progress('analytics', `${view}: ${rowCount} rows, p95 ${percentile(samples, 95).toFixed(1)} ms`);
        measured.push([view, samples, rowCount]);
      }
      const baseline = await timeRuns(runs, () => admin.query('select count(*), sum(size) from public.files'));
      // tag_category_coverage is materialized: what its background refresh (the refresh_analytics job) costs.
      await admin.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', false)`);
      const refresh = await timeRuns(isQuick() ? 3 : 5, () => admin.query('select public.refresh_analytics()'), 1);
      const rows = measured.map(([view, samples, rowCount]) => ({
        metric: `analytics.${view} (${rowCount} rows) at ${sizeLabel(files)} files / ${Math.round(dataset.fileTags / 1000)}k tag links, p95`,
        unit: 'ms',
        value: percentile(samples, 95),
        baseline: percentile(baseline, 95),
        baselineLabel: 'count+sum over files',
        goal: view === 'tag_category_coverage' ? 'p95 ≤ 100 ms' : 'p95 < 1 s',
        higherIsBetter: false,
      }));
      rows.push({
        metric: `refresh of analytics.tag_category_coverage (background job) at ${sizeLabel(files)} files, median`,
        unit: 'ms',
        value: percentile(refresh, 50),
        baseline: percentile(baseline, 50),
        baselineLabel: 'count+sum over files',
        goal: '—',
        higherIsBetter: false,
      });
      return rows;
    } finally {
      await analyst.end();
      await admin.end();
    }
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('analytics', await run());
}
