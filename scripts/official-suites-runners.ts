import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { denoBinary } from '@mediateca/stack';

/** How scripts/official-suites.ts runs one suite and reads its results (jest's JSON, Deno's JUnit). */

/** A change to the copy of a package's supabase/ directory: a replacement in a file, or a file written. */
export type Adaptation = { file: string; why: string } & ({ from: RegExp; to: string } | { content: string });

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}

let verbose = false;
export const setVerbose = (on: boolean) => {
  verbose = on;
};

export function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: verbose ? 'inherit' : ['ignore', 'ignore', 'ignore'],
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Jest's own summary (`--json`), whatever its exit code. */
export async function jest(dir: string, report: string, args: string[]): Promise<Counts> {
  const bin = path.join(dir, 'node_modules', '.bin', 'jest');
  await exec(bin, [...args, '--json', `--outputFile=${report}`, '--coverage=false'], dir);
  const result = JSON.parse(await readFile(report, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: Array<{
      name: string;
      message: string;
      assertionResults: Array<{ status: string; fullName: string; failureMessages?: string[] }>;
    }>;
  };
  const failures = result.testResults.flatMap((file) => {
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    const where = path.relative(dir, file.name);
    if (failed.length === 0 && file.message && file.assertionResults.length === 0) return [`${where}: suite failed`];
    return failed.map((test) => {
      // The first lines of the first failure say why (--json keeps them in the report file).
      const why = (test.failureMessages?.[0] ?? '').split('\n').slice(0, 12).join('\n      ');
      return `${where}: ${test.fullName}${verbose && why ? `\n      ${why}` : ''}`;
    });
  });
  return {
    passed: result.numPassedTests,
    failed: result.numFailedTests,
    skipped: result.numPendingTests + result.numTodoTests,
    failures,
  };
}

/** An assert module with what the Deno suites import from deno.land/std (written here, not fetched). */
const DENO_ASSERT = `
export function assertEquals(actual, expected, msg) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(msg ?? \`Values are not equal: \${a} !== \${e}\`);
}
export function assertExists(actual, msg) {
  if (actual === null || actual === undefined) throw new Error(msg ?? 'actual: "' + actual + '" expected to not be null or undefined');
}
`;

export async function deno(dir: string, report: string, files: string[], version: string): Promise<Counts> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'official-deno-'));
  try {
    await writeFile(path.join(work, 'assert.js'), DENO_ASSERT);
    const imports: Record<string, string> = {
      'https://deno.land/std@0.220.1/assert/mod.ts': path.join(work, 'assert.js'),
      '@supabase/supabase-js': `npm:@supabase/supabase-js@${version}`,
      '@supabase/supabase-js/cors': `npm:@supabase/supabase-js@${version}/cors`,
    };
    await writeFile(path.join(work, 'deno.json'), JSON.stringify({ lock: false, imports }));
    const counts: Counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
    for (const file of files) {
      const junit = `${report}.${path.basename(file)}.xml`;
      await exec(
        denoBinary(),
        [
          'test',
          '--allow-all',
          '--no-check',
          `--config=${path.join(work, 'deno.json')}`,
          `--junit-path=${junit}`,
          file,
        ],
        path.join(dir, 'test', 'deno'),
        { DENO_NO_PACKAGE_JSON: '1', DENO_DIR: process.env.DENO_DIR ?? path.resolve('node_modules/.cache/deno') },
      );
      const xml = existsSync(junit) ? await readFile(junit, 'utf8') : '';
      if (!xml) counts.failures.push(`test/deno/${file}: did not run`);
      // Deno's JUnit report: one <testcase> per step, with <failure> inside when it failed.
      for (const match of xml.matchAll(/<testcase name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
        const body = match[3] ?? '';
        if (/<failure/.test(body)) {
          counts.failed += 1;
          counts.failures.push(
            `test/deno/${file}: ${match[1]!.replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&')}`,
          );
        } else if (/<skipped/.test(body)) counts.skipped += 1;
        else counts.passed += 1;
      }
    }
    return counts;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The package's supabase/ directory, copied so that the Supabase CLI this project installs (3.x) reads it:
 * the suites pin CLI 2.x, which still took `[inbucket]` (now `[local_smtp]`). Nothing else is changed.
 */
export async function projectCopy(supabaseDir: string, adapt: Adaptation[] = []): Promise<string> {
  const project = await mkdtemp(path.join(os.tmpdir(), 'official-project-'));
  await cp(supabaseDir, path.join(project, 'supabase'), { recursive: true });
  const changes: Adaptation[] = [
    { file: 'config.toml', from: /^\[inbucket\]/m, to: '[local_smtp]', why: '' },
    ...adapt,
  ];
  for (const change of changes) {
    const file = path.join(project, 'supabase', change.file);
    const text = 'content' in change ? change.content : (await readFile(file, 'utf8')).replace(change.from, change.to);
    await writeFile(file, text);
    if (change.why) console.log(`\n  (${change.file}: ${change.why})`);
  }
  return project;
}
