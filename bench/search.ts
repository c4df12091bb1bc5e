import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sizeLabel, libraryFiles, isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress, signedInAdmin, timeRuns, withStack } from './lib/harness.ts';
import { generateDataset } from '../scripts/generate-dataset.ts';

/**
 * search_files at 100k files (10k with --quick) through the API, for a 1-word, a 2-word and a
 * tag-filtered query and the 'Sin traducir' and 'Duplicados' filters, against a plain primary-key lookup
 * through the same API path in the same run.
 */

/** The WHERE condition search_files builds for a filter object. */
async function filterCondition(db: pg.Client, filter: Record<string, unknown>): Promise<string> {
  const { rows } = await db.query<{ condition: string }>(
    'select private.file_filter_condition($1::jsonb) as condition',
    [filter],
  );
  return rows[0]!.condition;
}

/** The statement count_files runs for a filter, as the caller of this session (private.count_files_query). */
async function countQuery(db: pg.Client, filter: Record<string, unknown>): Promise<string> {
  const { rows } = await db.query<{ sql: string }>('select private.count_files_query($1) as sql', [filter]);
  return rows[0]!.sql;
}

/**
 * The generated library has every text translated and no checksums; a real one has some of both issues.
 * About 10% of files get an English title equal to the Spanish one ('Sin traducir') and about 2% share
 * their bytes with others (checksums from 500 shared contents), with `duplicate_of` set on all but the
 * earliest of each group, as the database's trigger would have (bulk-loaded without triggers, like the rest).
 */
async function shapeTranslationsAndDuplicates(adminDbUrl: string) {
  const db = new pg.Client({ connectionString: adminDbUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query('set local session_replication_role = replica');
    await db.query(
      `update public.files f
          set checksum = encode(sha256(convert_to(case when abs(hashtext(f.id::text)) % 50 = 0
                                                       then 'shared ' || abs(hashtext(f.id::text || 'd')) % 500
                                                       else f.id::text end, 'UTF8')), 'hex'),
              name_en = case when abs(hashtext(f.id::text || 't')) % 10 = 0 then f.name_es else f.name_en end`,
    );
    await db.query(
      `update public.files f set search_document = private.file_search_document(f) where f.name_en = f.name_es`,
    );
    await db.query(
      `update public.files f set duplicate_of = d.first_id
         from (select id, first_value(id) over (partition by checksum order by uploaded_on, id) as first_id
                 from public.files
                where checksum in (select checksum from public.files group by checksum having count(*) > 1)) d
        where d.id = f.id and d.id <> d.first_id`,
    );
    // The search index and its bitmaps the triggers would have kept (they are off here): the reshaped texts and
    // duplicates.
    await db.query(
      `select private.index_files_for_search(array(
         select f.id from public.files f where f.name_en = f.name_es or f.duplicate_of is not null))`,
    );
    await db.query(`select private.rebuild_search_bitmaps()`);
    await db.query('commit');
    // The first update rewrote every row: compact the table again, so the search rows measure the same heap
    // as a library that was never reshaped (a plain vacuum leaves it twice as large).
    await db.query('vacuum (full, analyze) public.files');
    // VACUUM FULL leaves the visibility map empty; a library in use has it set by autovacuum, and
    // index-only counts (all files, all images) rely on it.
    await db.query('vacuum (analyze) public.files');
    const { rows } = await db.query<{ missing: string; duplicates: string }>(
      `select count(*) filter (where name_en = name_es) as missing,
              count(*) filter (where duplicate_of is not null) as duplicates from public.files`,
    );
    progress('search', `${rows[0]!.missing} files without translation, ${rows[0]!.duplicates} duplicates`);
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    await db.end();
  }
}
export async function run(): Promise<BenchRow[]> {
  const files = libraryFiles();
  const runs = isQuick() ? 20 : 50;
  return withStack(async (stack) => {
    progress('search', `generating ${files} files`);
    const dataset = await generateDataset(stack.adminDbUrl, { files });
    await shapeTranslationsAndDuplicates(stack.adminDbUrl);
    const { client } = await signedInAdmin(stack);
    const anyFile = (await client.from('files').select('id').limit(1).single()).data!.id as string;
    // The files screen asks for the first page and the heading's total side by side; each is timed alone.
    const page = (filter: Record<string, unknown>) => async () => {
      const { error } = await client.rpc('search_files', { p_filter: filter, p_sort: 'uploadedOn_desc', p_limit: 100 });
      if (error) throw error;
    };
    const total = (filter: Record<string, unknown>) => async () => {
      const { error } = await client.rpc('count_files', { p_filter: filter });
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
      ['1 word and images', { query: 'piscina', type: 'image' }],
      ['no filter', {}],
      ['type filter (images)', { type: 'image' }],
      ["'Sin traducir' filter", { translation: 'missing' }],
      ["'Duplicados' filter", { duplicates: 'only' }],
    ];
    const measured: Array<[string, number[], string]> = [];
    for (const [label, filter] of cases) {
      measured.push([`search_files first page, ${label}`, await timeRuns(runs, page(filter)), 'p95 ≤ 50 ms']);
      measured.push([`count_files heading total, ${label}`, await timeRuns(runs, total(filter)), 'p95 ≤ 150 ms']);
    }
    // Timed last: right after loading the library, autovacuum and analyze are still at work.
    const baseline = await timeRuns(runs, lookup, 10);
    const rows: BenchRow[] = [];
    for (const [label, samples, goal] of measured) {
      for (const p of [50, 95]) {
        rows.push({
          metric: `${label} at ${sizeLabel(files)}, p${p}`,
          unit: 'ms',
          value: percentile(samples, p),
          baseline: percentile(baseline, p),
          baselineLabel: 'PK lookup via API',
          goal: p === 95 ? goal : '—',
          higherIsBetter: false,
        });
      }
    }
    const db = new pg.Client({ connectionString: stack.adminDbUrl });
    await db.connect();
    try {
      // The plan of the slowest total, for the README (the next bottleneck).
      const slowest = measured
        .filter(([label]) => label.startsWith('count_files'))
        .sort((a, b) => percentile(b[1], 95) - percentile(a[1], 95))[0]!;
      const filter = cases.find(([label]) => slowest[0].endsWith(label))![1];
      await db.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', false)`);
      const countSql = await countQuery(db, filter);
      const plan = await db.query(`explain (analyze, buffers, format text) ${countSql}`);
      progress(
        'search',
        `slowest total: ${slowest[0]}\n${countSql}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`,
      );
      const untranslated = await db.query(
        `explain (format text) select count(*) from public.files f where ${await filterCondition(db, { translation: 'missing' })}`,
      );
      const untranslatedPlan = untranslated.rows.map((r) => r['QUERY PLAN']).join('\n');
      progress(
        'search',
        `'Sin traducir' plan uses its index: ${/files_missing_translation_idx/.test(untranslatedPlan)}`,
      );
    } finally {
      await db.end();
    }
    return rows;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await report('search', await run());
}
