import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import * as tar from 'tar';
import { BlobStore } from './storage/blobs.ts';

/**
 * One archive holding the library: the data of the app's schemas, the auth users and the storage rows (a
 * data-only dump in pg_dump's own `COPY … FROM stdin` text, so `psql` can load it into any database with the
 * same migrations, as Supabase's restore guide does), and the bytes of every stored object. The schema itself
 * is not in the archive: it is the migrations, which the target must have applied, exactly the same list.
 *
 * Sessions, refresh tokens and in-progress TUS uploads are left out on purpose: a restored library signs
 * everyone out and unfinished uploads start again.
 */
export const BACKUP_FORMAT = 1;

/** Whole schemas, and the single tables of Supabase's own schemas that hold the library's state. */
const DATA_SCHEMAS = ['public', 'private'];
const SINGLE_TABLES = ['auth.users', 'auth.identities', 'storage.buckets', 'storage.objects'];

export interface BackupManifest {
  format: number;
  createdAt: string;
  migrations: string[];
  tables: Array<{ name: string; rows: number }>;
  objects: Array<{ bucket: string; name: string; size: number }>;
}

interface Table {
  name: string;
  columns: string[];
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (name: string) => name.split('.').map(quoteIdent).join('.');

async function tablesToKeep(db: pg.Client): Promise<Table[]> {
  const { rows } = await db.query<{ name: string; columns: string[] }>(
    `select format('%s.%s', n.nspname, c.relname) as name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where c.relkind in ('r', 'p')
        and (n.nspname = any($1) or format('%s.%s', n.nspname, c.relname) = any($2))
      group by n.nspname, c.relname
      order by 1`,
    [DATA_SCHEMAS, SINGLE_TABLES],
  );
  return rows;
}

async function appliedMigrations(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations order by version',
  );
  return rows.map((row) => row.version);
}

/** Where the storage service (its data dir is the stack's `storage/`) keeps the bytes of one object version. */
const blobPath = (dataDir: string, version: string) => new BlobStore(path.join(dataDir, 'storage')).pathOf(version);

/** Resolves an object's archive path, refusing names that would leave the archive's objects folder. */
function objectFile(root: string, bucket: string, name: string): string {
  const file = path.resolve(root, 'objects', bucket, name);
  if (!file.startsWith(path.resolve(root, 'objects') + path.sep)) throw new Error(`unsafe object name: ${name}`);
  return file;
}

/**
 * Writes the archive from one consistent snapshot (a repeatable-read transaction): rows and the objects those
 * rows name. Object bytes are immutable per version, so reading them after the snapshot is still consistent.
 */
export async function backupLibrary(options: { adminDbUrl: string; dataDir: string; archive: string }) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mediateca-backup-'));
  const db = new pg.Client({ connectionString: options.adminDbUrl });
  await db.connect();
  try {
    await db.query('begin isolation level repeatable read read only');
    const migrations = await appliedMigrations(db);
    const tables = await tablesToKeep(db);
    const sqlFile = createWriteStream(path.join(work, 'database.sql'));
    const write = (text: string | Buffer) =>
      new Promise<void>((resolve) => (sqlFile.write(text) ? resolve() : sqlFile.once('drain', resolve)));
    await write(
      '-- Mediateca backup: data only, for a database with the same migrations applied.\n' +
        'SET session_replication_role = replica;\n\n',
    );
    const counts: BackupManifest['tables'] = [];
    for (const table of tables) {
      const columns = table.columns.map(quoteIdent).join(', ');
      await write(`COPY ${qualified(table.name)} (${columns}) FROM stdin;\n`);
      let rows = 0;
      const stream = db.query(copyTo(`COPY ${qualified(table.name)} (${columns}) TO STDOUT`));
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        for (const byte of chunk) if (byte === 10) rows += 1;
        await write(chunk);
      }
      await write('\\.\n\n');
      counts.push({ name: table.name, rows });
    }
    const sequences = await db.query<{ name: string; value: string | null; called: boolean }>(
      `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value, last_value is not null as called
         from pg_sequences where schemaname = any($1)`,
      [DATA_SCHEMAS],
    );
    for (const sequence of sequences.rows) {
      if (sequence.value) await write(`SELECT pg_catalog.setval('${sequence.name}', ${sequence.value}, true);\n`);
    }
    await new Promise<void>((resolve, reject) =>
      sqlFile.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );

    const objects = await db.query<{ bucket: string; name: string; version: string; size: string }>(
      `select bucket_id as bucket, name, version, coalesce(metadata->>'size', '0') as size
         from storage.objects where version is not null order by bucket_id, name`,
    );
    for (const object of objects.rows) {
      const target = objectFile(work, object.bucket, object.name);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(blobPath(options.dataDir, object.version), target);
    }
    await db.query('commit');

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      migrations,
      tables: counts,
      objects: objects.rows.map((o) => ({ bucket: o.bucket, name: o.name, size: Number(o.size) })),
    };
    await writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await mkdir(path.dirname(path.resolve(options.archive)), { recursive: true });
    await tar.create({ gzip: true, file: options.archive, cwd: work, portable: true }, [
      'manifest.json',
      'database.sql',
      'objects',
    ]);
    return manifest;
  } finally {
    await db.end();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Loads an archive into a database with the same migrations: in one transaction, the kept tables are emptied
 * and filled from the archive with triggers and foreign-key checks off (as pg_dump's data-only restore does),
 * then the object bytes are put where the storage service reads them. A failed load changes nothing in the
 * database; bytes already copied are harmless, since no row names them.
 */
export async function restoreLibrary(options: { adminDbUrl: string; dataDir: string; archive: string }) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mediateca-restore-'));
  const db = new pg.Client({ connectionString: options.adminDbUrl });
  await db.connect();
  try {
    await tar.extract({ file: options.archive, cwd: work, strict: true });
    const manifest = JSON.parse(await readFile(path.join(work, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT) throw new Error(`unknown backup format ${manifest.format}`);
    const migrations = await appliedMigrations(db);
    if (migrations.join() !== manifest.migrations.join()) {
      throw new Error(
        'the backup was taken with other migrations than this database has; apply the same migrations first',
      );
    }

    await db.query('begin');
    await db.query('set local session_replication_role = replica');
    await db.query(`truncate ${manifest.tables.map((t) => qualified(t.name)).join(', ')} cascade`);
    const lines = readline.createInterface({
      input: createReadStream(path.join(work, 'database.sql'), 'utf8'),
      crlfDelay: Infinity,
    });
    let copy: ReturnType<typeof copyFrom> | null = null;
    let done: Promise<void> | null = null;
    for await (const line of lines) {
      if (copy) {
        if (line === '\\.') {
          copy.end();
          await done;
          copy = null;
        } else if (!copy.write(`${line}\n`)) {
          await new Promise((resolve) => copy!.once('drain', resolve));
        }
      } else if (line.startsWith('COPY ')) {
        copy = db.query(copyFrom(line.replace(/ FROM stdin;$/, ' FROM STDIN')));
        const stream = copy;
        done = new Promise<void>((resolve, reject) => {
          stream.once('finish', resolve);
          stream.once('error', reject);
        });
      } else if (line.startsWith('SELECT pg_catalog.setval(')) {
        await db.query(line);
      }
    }

    for (const object of (
      await db.query<{ bucket: string; name: string; version: string }>(
        'select bucket_id as bucket, name, version from storage.objects where version is not null',
      )
    ).rows) {
      const target = blobPath(options.dataDir, object.version);
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(createReadStream(objectFile(work, object.bucket, object.name)), createWriteStream(target));
    }
    // Materialized views are derived, not archived: computed again from the restored rows.
    const views = await db.query<{ name: string }>(
      `select format('%I.%I', schemaname, matviewname) as name from pg_matviews order by 1`,
    );
    for (const view of views.rows) await db.query(`refresh materialized view ${view.name}`);
    await db.query('commit');
    return manifest;
  } catch (error) {
    await db.query('rollback').catch(() => {});
    throw error;
  } finally {
    await db.end();
    await rm(work, { recursive: true, force: true });
  }
}
