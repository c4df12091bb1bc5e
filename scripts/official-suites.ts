import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startStack, type StackOptions, DEFAULT_API_PORT, DEFAULT_DB_PORT } from '@mediateca/stack';
import { deno, exec, jest, projectCopy, setVerbose, type Adaptation, type Counts } from './official-suites-runners.ts';

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
setVerbose(values.verbose ?? false);

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
      deno(
        dir,
        report,
        [
          'integration.test.ts',
          'edge-functions-integration.test.ts',
          'cors-validation.test.ts',
          'cors-http-methods.test.ts',
          'cors-errors.test.ts',
        ],
        release.version,
      ),
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
