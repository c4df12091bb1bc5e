import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import pg from 'pg';
import { freePort, PROJECT_ROOT } from '@mediateca/stack';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * `npm start` as a user runs it: persistent data dir, printed URLs and keys, demo sign-in, Ctrl-C that
 * leaves no process behind, and a second start that reuses the data.
 */

interface Started {
  child: ChildProcess;
  output: () => string;
  apiUrl: string;
  appUrl: string;
  anonKey: string;
}

async function descendants(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const child of children.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startCli(dataDir: string, ports: { api: number; db: number; app: number }): Promise<Started> {
  // Exactly what `npm start` runs.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      STACK_DATA_DIR: dataDir,
      STACK_API_PORT: String(ports.api),
      STACK_DB_PORT: String(ports.db),
      APP_PORT: String(ports.app),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not become ready:\n${output}`)), 150_000);
    const check = () => {
      if (output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  const field = (label: string) => {
    const match = new RegExp(`${label}:\\s+(\\S+)`).exec(output);
    if (!match) throw new Error(`"${label}" not printed:\n${output}`);
    return match[1]!;
  };
  return { child, output: () => output, apiUrl: field('API URL'), appUrl: field('App'), anonKey: field('Anon key') };
}

async function stopCli(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill('SIGINT');
  return exited;
}

describe('npm start', () => {
  let dataDir = '';
  let running: Started | undefined;

  afterAll(async () => {
    if (running && running.child.exitCode === null) await stopCli(running);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the URLs and keys, serves the app, signs in a demo account, and stops every process on Ctrl-C', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mediateca-cli-'));
    const ports = { api: await freePort(), db: await freePort(), app: await freePort() };
    running = await startCli(dataDir, ports);

    expect(running.apiUrl).toBe(`http://127.0.0.1:${ports.api}`);
    const analystUrl = /Analyst DB URL:\s+(\S+)/.exec(running.output())?.[1];
    expect(analystUrl).toBe(`postgresql://analyst_local:analyst-local@127.0.0.1:${ports.db}/postgres`);
    const analyst = new pg.Client({ connectionString: analystUrl });
    await analyst.connect();
    const published = await analyst.query<{ n: number }>(
      `select sum(files)::int as n from analytics.publication_state`,
    );
    await analyst.end();
    expect(published.rows[0]!.n).toBeGreaterThan(0);
    expect(running.output()).toMatch(/admin@mediateca\.local/);
    expect(running.output()).toMatch(/uploader@mediateca\.local/);

    const page = await fetch(running.appUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root">/);

    const supabase = createClient(running.apiUrl, running.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const { data, error } = await supabase.auth.signInWithPassword({
      email: seedAccounts.ADMIN.email,
      password: seedAccounts.ADMIN.password,
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();

    const children = await descendants(running.child.pid!);
    expect(children.length).toBeGreaterThan(0);
    expect(await stopCli(running)).toBe(0);
    // Postgres takes a moment to finish its shutdown checkpoint after the postmaster is told to stop.
    for (let i = 0; i < 100 && children.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(children.filter(alive)).toEqual([]);

    running = await startCli(dataDir, ports);
    expect(running.output()).not.toMatch(/initialising a new Postgres cluster/);
    const again = await supabase.auth.signInWithPassword({
      email: seedAccounts.ADMIN.email,
      password: seedAccounts.ADMIN.password,
    });
    expect(again.error).toBeNull();
    expect(await stopCli(running)).toBe(0);
  }, 400_000);
});
