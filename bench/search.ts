import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * search_files at 100k files (10k with --quick) through the API, for a 1-word, a 2-word and a
 * tag-filtered query, against a plain primary-key lookup through the same API path in the same run.
 */
export async function run(): Promise<BenchRow[]> {
  const files = isQuick() ? 10_000 : 100_000;
  const runs = isQuick() ? 20 : 50;
  return withStack(async (stack) => {
    progress('search', `generating ${files} files`);
    const dataset = await generateDataset(stack.adminDbUrl, { files });
    const { client } = await signedInAdmin(stack);
    const anyFile = (await client.from('files').select('id').limit(1).single()).data!.id as string;
    const search = (filter: Record<string, unknown>) => async () => {
      const { error } = await client.rpc('search_files', {
        p_filter: filter,
        p_sort: 'uploadedOn_desc',
        p_limit: 100,
        p_offset: 0,
      });
      if (error) throw error;
    };
    const lookup = async () => {
      const { error } = await client.from('files').select('*').eq('id', anyFile).single();
      if (error) throw error;
    };
    progress('search', `timing ${runs} runs of each query`);
    const cases: Array<[string, Record<string, unknown>]> = [
      ['1 word ("piscina")', { query: 'piscina' }],
      ['2 words ("piscina verano")', { query: 'piscina verano' }],
      [`tag filter (${dataset.sampleTagName})`, { tagId: dataset.sampleTagId }],
      ['no filter (first page + count)', {}],
    ];
    const measured: Array<[string, number[]]> = [];
    for (const [label, filter] of cases) measured.push([label, await timeRuns(runs, search(filter))]);
    // Timed last: right after loading 100k rows, autovacuum and analyze are still at work.
    const baseline = await timeRuns(runs, lookup, 10);
    const rows: BenchRow[] = [];
    for (const [label, samples] of measured) {
      for (const p of [50, 95]) {
        rows.push({
          metric: `search_files ${label} at ${files / 1000}k, p${p}`,
          unit: 'ms',
          value: percentile(samples, p),
          baseline: percentile(baseline, p),
          baselineLabel: 'PK lookup via API',
          goal: p === 95 ? 'p95 < 150 ms' : '—',
          higherIsBetter: false,
        });
      }
    }
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    try {
      const plan = await db.query(
        `explain (analyze, format text) select * from public.files f
          where f.search_document like '%piscina%' and f.search_document like '%verano%'`,
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      progress('search', `2-word plan uses the trigram index: ${/files_search_document_trgm_idx/.test(text)}`);
    } finally {
      await db.end();
    }
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('search', await run());
}
