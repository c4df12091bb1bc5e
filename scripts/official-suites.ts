import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startStack, type StackOptions } from '../stack/src/stack.ts';
import { DEFAULT_API_PORT, DEFAULT_DB_PORT } from '../stack/src/config.ts';
import { denoBinary } from '../stack/src/functions/index.ts';

/**
 * Runs the official supabase-js monorepo's integration suites against this stack, as their CI runs them
 * against `supabase start`: for each package, a fresh ephemeral stack on the CLI's ports (the suites hard-code
 * 127.0.0.1:54321) from the package's own supabase/ directory (config.toml, migrations, seed), then its tests.
 *
 *   node --import tsx scripts/official-suites.ts --checkout ~/src/supabase-js [--only auth-js,storage-js] [--json out.json]
 *
 * The checkout is yours: `git clone` supabase/supabase-js, check out the release the stack is measured against
 * (stack/README.md), `pnpm install --ignore-scripts` (pnpm 10 runs on Node 20; the ignored scripts only fetch
 * the Supabase CLI and browsers, which this run does not use). Nothing of it is copied here. Deno's suites
 * import from deno.land and esm.sh; the run maps those imports to the npm release and to a small assert module
 * of its own, written to a temp dir.
 */

interface Suite {
  name: string;
  /** The package's directory in the checkout. */
  dir: string;
  /** Its supabase/ directory, relative to `dir`. */
  supabaseDir: string;
  /** Before the stack starts (e.g. auth-js's signing keys, which its config.toml reads). */
  prepare?: (dir: string) => Promise<void>;
  /** Stack options besides the CLI's ports and the package's project, said in the report. */
  options?: Partial<StackOptions>;
  /** What the copy of supabase/ must change to run on embedded Postgres, said in the report. */
  adapt?: Adaptation[];
  run: (dir: string, report: string) => Promise<Counts>;
}

/** A change to the copy of a package's supabase/ directory: a replacement in a file, or a file written. */
type Adaptation = { file: string; why: string } & ({ from: RegExp; to: string } | { content: string });

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}

const { values } = parseArgs({
  options: {
    checkout: { type: 'string' },
    only: { type: 'string' },
    json: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
if (!values.checkout) {
  console.error('usage: official-suites.ts --checkout <path to a supabase-js checkout> [--only a,b] [--json file]');
  process.exit(2);
}
const checkout = path.resolve(values.checkout);

function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: values.verbose ? 'inherit' : ['ignore', 'ignore', 'ignore'],
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Jest's own summary (`--json`), whatever its exit code. */
async function jest(dir: string, report: string, args: string[]): Promise<Counts> {
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
      return `${where}: ${test.fullName}${values.verbose && why ? `\n      ${why}` : ''}`;
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

async function deno(dir: string, report: string, files: string[]): Promise<Counts> {
  const version = release.version;
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
async function projectCopy(supabaseDir: string, adapt: Suite['adapt'] = []): Promise<string> {
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

const core = (name: string) => path.join(checkout, 'packages', 'core', name);

/** The release the npm mappings point at: the checkout's own version is a workspace placeholder. */
const release = createRequire(import.meta.url)('@supabase/supabase-js/package.json') as { version: string };

/**
 * supabase-js's test functions import deno.land's std `serve` and esm.sh builds of the PR under test, which this
 * offline machine cannot fetch: an import map gives them `Deno.serve` and the npm release instead.
 */
const OFFLINE_FUNCTIONS: Adaptation[] = [
  {
    file: 'functions/_offline_serve.ts',
    content: 'export const serve = (handler: (req: Request) => Response | Promise<Response>) => Deno.serve(handler);\n',
    why: '',
  },
  {
    file: 'functions/deno.json',
    content: JSON.stringify({
      imports: {
        'https://deno.land/std@0.168.0/http/server.ts': './_offline_serve.ts',
        '@supabase/supabase-js': `npm:@supabase/supabase-js@${release.version}`,
        '@supabase/supabase-js/cors': `npm:@supabase/supabase-js@${release.version}/cors`,
      },
    }),
    why: `functions import deno.land std and esm.sh: mapped to Deno.serve and npm:@supabase/supabase-js@${release.version}`,
  },
];

const SUITES: Suite[] = [
  {
    name: 'auth-js',
    dir: core('auth-js'),
    supabaseDir: 'test/supabase',
    prepare: async (dir) => {
      if (!existsSync(path.join(dir, 'test/supabase/signing_keys.json'))) {
        await exec(process.execPath, ['test/generate-signing-keys.js'], dir);
      }
    },
    run: (dir, report) => jest(dir, report, ['--config', 'jest.config.cli.js', '--runInBand']),
  },
  {
    name: 'storage-js',
    dir: core('storage-js'),
    supabaseDir: 'test/supabase',
    run: (dir, report) => jest(dir, report, ['--runInBand']),
  },
  {
    name: 'postgrest-js',
    dir: core('postgrest-js'),
    supabaseDir: 'test/supabase',
    adapt: [
      {
        file: 'migrations/00000000000000_schema.sql',
        from: /create extension if not exists postgis schema extensions;([\s\S]*?)extensions\.geometry\(POINT, 4326\)/,
        to: '$1text',
        why: 'embedded Postgres has no PostGIS: shops.shop_geom is text, so the .geojson() test cannot pass',
      },
    ],
    run: (dir, report) => jest(dir, report, ['--runInBand', '--testPathIgnorePatterns=test/v12/']),
  },
  {
    name: 'supabase-js',
    dir: core('supabase-js'),
    supabaseDir: 'supabase',
    adapt: OFFLINE_FUNCTIONS,
    run: (dir, report) => jest(dir, report, ['--runInBand', 'test/integration.test.ts']),
  },
  {
    name: 'supabase-js (Deno)',
    dir: core('supabase-js'),
    supabaseDir: 'supabase',
    adapt: OFFLINE_FUNCTIONS,
    run: (dir, report) =>
      deno(dir, report, [
        'integration.test.ts',
        'edge-functions-integration.test.ts',
        'cors-validation.test.ts',
        'cors-http-methods.test.ts',
        'cors-errors.test.ts',
      ]),
  },
];

const only = values.only?.split(',').map((name) => name.trim());
const results: Record<string, Counts> = {};
const reports = await mkdtemp(path.join(os.tmpdir(), 'official-suites-'));
for (const suite of SUITES.filter((s) => !only || only.includes(s.name))) {
  if (!existsSync(suite.dir)) throw new Error(`${suite.dir} does not exist: is ${checkout} a supabase-js checkout?`);
  await suite.prepare?.(suite.dir);
  process.stdout.write(`${suite.name}: starting the stack… `);
  const project = await projectCopy(path.join(suite.dir, suite.supabaseDir), suite.adapt);
  const stack = await startStack({
    ephemeral: true,
    seed: true,
    apiPort: DEFAULT_API_PORT,
    dbPort: DEFAULT_DB_PORT,
    supabaseDir: path.join(project, 'supabase'),
    jobWorker: false,
    // As `supabase start`, whose Kong has no key-auth: postgrest-js and some auth-js and storage-js tests call
    // without any apikey, which hosted Supabase's gateway (and this stack by default) refuses with 401.
    gatewayKeyAuth: false,
    ...suite.options,
    log: values.verbose ? (message) => console.log(`[stack] ${message}`) : () => {},
  }).catch((error: unknown) => {
    console.log(`the stack did not start: ${(error as Error).message.split('\n').slice(0, 8).join('\n  ')}`);
    return null;
  });
  if (!stack) {
    results[suite.name] = { passed: 0, failed: 0, skipped: 0, failures: ['the stack did not start'] };
    await rm(project, { recursive: true, force: true });
    continue;
  }
  try {
    process.stdout.write('running… ');
    const counts = await suite.run(suite.dir, path.join(reports, `${suite.name.replace(/\W+/g, '-')}.json`));
    results[suite.name] = counts;
    console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    for (const failure of counts.failures) console.log(`  ✗ ${failure}`);
  } finally {
    await stack.stop();
    await rm(project, { recursive: true, force: true });
  }
}
await rm(reports, { recursive: true, force: true });

const total = Object.values(results).reduce(
  (sum, counts) => ({ passed: sum.passed + counts.passed, failed: sum.failed + counts.failed }),
  { passed: 0, failed: 0 },
);
console.log(`\nofficial suites: ${total.passed} passed, ${total.failed} failed`);
if (values.json) await writeFile(values.json, JSON.stringify(results, null, 2));
