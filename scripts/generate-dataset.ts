import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startStack } from '@mediateca/stack';

/**
 * Large, realistic datasets for benchmarks: N files (10k, 100k…) with bilingual tags in categories
 * (~4 per file), collections, images and documents, sizes up to 1 GB and dates over three years. Set-based
 * SQL, deterministic for a given seed: every id is derived from the seed (md5 of seed, kind and number, read
 * as a uuid) and every random choice comes from `random()` after `setseed`, so the same seed gives the same
 * files, tag links and collection links, and so the same search totals. Only the dates move with the day of
 * the load (they count back from now()). Runs as the superuser on a migrated database.
 *
 *   node --import tsx scripts/generate-dataset.ts --files 100000 --db-url <superuser url>
 *   node --import tsx scripts/generate-dataset.ts --files 10000 --stack   (ephemeral stack, prints counts)
 */

const WORDS_ES = [
  'piscina',
  'habitación',
  'restaurante',
  'spa',
  'playa',
  'terraza',
  'jardín',
  'gimnasio',
  'recepción',
  'bar',
  'desayuno',
  'cena',
  'boda',
  'congreso',
  'suite',
  'vistas',
  'montaña',
  'ciudad',
  'niños',
  'familia',
  'otoño',
  'invierno',
  'verano',
  'primavera',
  'navidad',
  'campaña',
  'folleto',
  'tarifa',
  'menú',
  'evento',
];
const WORDS_EN = [
  'pool',
  'room',
  'restaurant',
  'spa',
  'beach',
  'terrace',
  'garden',
  'gym',
  'reception',
  'bar',
  'breakfast',
  'dinner',
  'wedding',
  'congress',
  'suite',
  'views',
  'mountain',
  'city',
  'kids',
  'family',
  'autumn',
  'winter',
  'summer',
  'spring',
  'christmas',
  'campaign',
  'brochure',
  'rate',
  'menu',
  'event',
];

export interface DatasetSummary {
  files: number;
  fileTags: number;
  tags: number;
  collections: number;
  sampleTagId: string;
  sampleTagName: string;
}

/**
 * Waits until every logical replication slot (the stack's Realtime stream) has consumed the WAL written so
 * far: decoding a bulk load of 100k rows takes the WAL sender and Realtime seconds of CPU, which would
 * otherwise be timed as part of whatever a benchmark measures next.
 */
async function waitForLogicalReplication(db: pg.Client, timeoutMs = 120_000): Promise<void> {
  const { rows } = await db.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
  const target = rows[0]!.lsn;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const behind = await db.query(
      `select 1 from pg_replication_slots
        where slot_type = 'logical' and active and (confirmed_flush_lsn is null or confirmed_flush_lsn < $1::pg_lsn)`,
      [target],
    );
    if (behind.rowCount === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.warn('generate-dataset: logical replication has not caught up with the load; measuring anyway');
}

export async function generateDataset(
  adminDbUrl: string,
  options: { files: number; seed?: number },
): Promise<DatasetSummary> {
  const db = new pg.Client({ connectionString: adminDbUrl });
  await db.connect();
  // The load is one transaction of millions of rows at 1M files, which the stack's Realtime would decode for
  // minutes (and buffer) while the benchmarks measure: a real library grows by uploads over years, not in one
  // statement. Its tables leave the Realtime publication for the load and come back right after.
  const { rows: published } = await db.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_publication_tables
      where pubname = 'supabase_realtime' and schemaname = 'public'
        and tablename in ('tag_categories', 'tags', 'files', 'file_tags', 'collections', 'collection_files')`,
  );
  const publicationTables = published.map((row) => row.name).join(', ');
  if (publicationTables) await db.query(`alter publication supabase_realtime drop table ${publicationTables}`);
  try {
    const seed = options.seed ?? 42;
    await db.query('begin');
    await db.query('select setseed($1)', [(seed % 1000) / 1000]);
    // Bulk load without per-row trigger work; search documents are computed once at the end.
    await db.query(`set local session_replication_role = replica`);
    await db.query(
      `insert into public.tag_categories (id, name_es, name_en)
       select md5($1 || '/category/' || g)::uuid, 'Categoría ' || g, 'Category ' || g from generate_series(1, 8) g`,
      [seed],
    );
    await db.query(
      `insert into public.tags (id, category_id, name_es, name_en)
       select md5($3 || '/tag/' || g)::uuid, md5($3 || '/category/' || (1 + g % 8))::uuid,
              initcap(es.w) || ' ' || g, initcap(en.w) || ' ' || g
         from generate_series(1, 60) g
         join lateral (select ($1::text[])[1 + (g % 30)] as w) es on true
         join lateral (select ($2::text[])[1 + (g % 30)] as w) en on true`,
      [WORDS_ES, WORDS_EN, seed],
    );
    await db.query(
      `insert into public.files (id, file_name, object_path, original_file_name, name_es, name_en, description_es,
         description_en, size, uploaded_on, uploader_id, uploader_email, extension, processing, published, b2b, operations)
       select id, u || '.' || ext, id || '/' || u || '.' || ext, w1 || '-' || g || '.' || ext,
              initcap(w1) || ' ' || w2 || ' ' || g, initcap(e1) || ' ' || e2 || ' ' || g,
              'Foto de ' || w2 || ' en ' || w1, 'Photo of ' || e2 || ' at ' || e1,
              (random() ^ 3 * 1000000000)::bigint, now() - random() * interval '1095 days',
              case when g % 3 = 0 then 'a0000000-0000-4000-8000-000000000002'::uuid else 'a0000000-0000-4000-8000-000000000001'::uuid end,
              case when g % 3 = 0 then 'uploader@mediateca.local' else 'admin@mediateca.local' end,
              ext, false, random() < 0.6, random() < 0.8, random() < 0.1
         from (
           select g, md5($4 || '/file/' || g)::uuid as id, md5($4 || '/object/' || g)::uuid as u,
                  (array['jpg','jpg','jpg','png','pdf','docx','mp4','xlsx'])[1 + floor(random() * 8)::int] as ext,
                  ($2::text[])[1 + floor(random() * 30)::int] as w1, ($2::text[])[1 + floor(random() * 30)::int] as w2,
                  ($3::text[])[1 + floor(random() * 30)::int] as e1, ($3::text[])[1 + floor(random() * 30)::int] as e2
             from generate_series(1, $1::int) g
         ) s`,
      [options.files, WORDS_ES, WORDS_EN, seed],
    );
    await db.query(
      `insert into public.file_tags (file_id, tag_id)
       select f.id, t.id from public.files f join public.tags t
         on abs(hashtext(f.id::text || t.id::text)) % 15 = 0
       on conflict do nothing`,
    );
    await db.query(
      `insert into public.collections (id, name, is_public)
       select md5($1 || '/collection/' || g)::uuid, 'Colección ' || g, g % 4 = 0 from generate_series(1, 30) g`,
      [seed],
    );
    await db.query(
      `insert into public.collection_files (collection_id, file_id)
       select c.id, f.id from public.files f
         join lateral (select id from public.collections order by id offset abs(hashtext(f.id::text)) % 30 limit 1) c on true
        where abs(hashtext(f.id::text || 'c')) % 5 = 0
       on conflict do nothing`,
    );
    await db.query(`update public.files f set search_document = private.file_search_document(f)`);
    // The search terms and their bitmaps the triggers would have kept (they are off for the load). A GIN index
    // takes a million rows' terms far faster through a large pending list, merged once, than entry by entry.
    await db.query(`set local gin_pending_list_limit = '1GB'`);
    await db.query(`select private.index_files_for_search(array(select id from public.files))`);
    await db.query(`select private.rebuild_search_bitmaps()`);
    // Likewise the counters the link triggers keep: files per tag and per collection.
    await db.query(`select private.recount_tag_files()`);
    await db.query(
      `update public.collections c
          set file_count = (select count(*) from public.collection_files cf where cf.collection_id = c.id)`,
    );
    await db.query('commit');
    if (publicationTables) await db.query(`alter publication supabase_realtime add table ${publicationTables}`);
    // A library that has been in use is vacuumed and analysed; right after a bulk load (and the update of
    // every row above) autovacuum would be working through it while benchmarks time their queries.
    await db.query(
      `vacuum (analyze) public.files, public.file_tags, public.collection_files, public.tags, private.file_search,
         private.search_terms, private.search_term_blocks`,
    );
    await db.query('analyze');
    // The analysts' materialized view, as its refresh job would leave it.
    await db.query('refresh materialized view analytics.tag_category_coverage');
    await waitForLogicalReplication(db);
    const counts = await db.query<{ files: string; file_tags: string; tags: string; collections: string }>(
      `select (select count(*) from public.files) as files, (select count(*) from public.file_tags) as file_tags,
              (select count(*) from public.tags) as tags, (select count(*) from public.collections) as collections`,
    );
    const sample = await db.query<{ id: string; name_es: string }>(
      `select t.id, t.name_es from public.tags t join public.file_tags ft on ft.tag_id = t.id
        group by t.id order by count(*) desc limit 1`,
    );
    const row = counts.rows[0]!;
    return {
      files: Number(row.files),
      fileTags: Number(row.file_tags),
      tags: Number(row.tags),
      collections: Number(row.collections),
      sampleTagId: sample.rows[0]!.id,
      sampleTagName: sample.rows[0]!.name_es,
    };
  } catch (error) {
    await db.query('rollback').catch(() => {});
    if (publicationTables) {
      await db.query(`alter publication supabase_realtime add table ${publicationTables}`).catch(() => {}); // already back if the load had committed
    }
    throw error;
  } finally {
    await db.end();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const files = Number(value('--files') ?? 10_000);
  if (args.includes('--stack')) {
    const stack = await startStack({ ephemeral: true, seed: true, log: () => {} });
    try {
      const started = Date.now();
      console.log(await generateDataset(stack.adminDbUrl, { files }), `${Date.now() - started} ms`);
    } finally {
      await stack.stop();
    }
    return;
  }
  const dbUrl = value('--db-url');
  if (!dbUrl) throw new Error('Give --db-url <superuser postgres url> or --stack');
  console.log(await generateDataset(dbUrl, { files }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
