import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sizeLabel, libraryFiles, isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * The files screen's timeline: file_months (every month of the filtered files with its count, for the
 * scrubber) at 100k files (10k with --quick) through the API, beside the heading's total (count_files) for
 * the same filter, which the screen already asks for at the same moment: the ratio says what the months
 * cost over the count.
 */

const FILTERS: Array<[string, Record<string, unknown>]> = [
  ['no filter', {}],
  ['type filter (images)', { type: 'image' }],
  ['1 word ("piscina")', { query: 'piscina' }],
  ['1 word and images', { query: 'piscina', type: 'image' }],
];

export async function run(): Promise<BenchRow[]> {
  const files = libraryFiles();
  const runs = isQuick() ? 10 : 30;
  return withStack(async (stack) => {
    progress('file-months', `generating ${files} files`);
    await generateDataset(stack.adminDbUrl, { files });
    const { client } = await signedInAdmin(stack);
    const rows: BenchRow[] = [];
    for (const [label, filter] of FILTERS) {
      const months = timeRuns(runs, async () => {
        const { data, error } = await client.rpc('file_months', {
          p_filter: filter,
          p_sort: 'uploadedOn_desc',
          p_time_zone: 'Europe/Madrid',
        });
        if (error) throw error;
        return data;
      });
      const monthTimes = await months;
      const countTimes = await timeRuns(runs, async () => {
        const { error } = await client.rpc('count_files', { p_filter: filter });
        if (error) throw error;
      });
      rows.push({
        metric: `file_months (scrubber) ${label} at ${sizeLabel(files)}, p95`,
        unit: 'ms',
        value: percentile(monthTimes, 95),
        baseline: percentile(countTimes, 95),
        baselineLabel: 'count_files, same filter',
        goal: 'p95 ≤ 150 ms',
        higherIsBetter: false,
      });
    }
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('file-months', await run());
}
