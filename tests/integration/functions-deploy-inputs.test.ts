import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadProjectConfig,
  PROJECT_ROOT,
  cacheFunctionDependencies,
  createBundleSizer,
  HOSTED_FREE_PLAN_LIMITS,
} from '@mediateca/stack';
import { parse } from 'smol-toml';

/**
 * What `supabase functions deploy` takes from the repository, checked offline: for each function, the
 * import map the CLI would send (its precedence: `import_map` in config.toml, then deno.json / deno.jsonc /
 * import_map.json in the function's folder, then functions/import_map.json; otherwise none) must resolve
 * every import of the function's module graph from Deno's cache, and no module may come from outside
 * supabase/functions (the bundle holds only that folder) or from the network; and each bundles to under
 * hosted's 20 MB.
 */

const require = createRequire(import.meta.url);
const supabaseDir = path.join(PROJECT_ROOT, 'supabase');
const functionsDir = path.join(supabaseDir, 'functions');
const deno = path.join(path.dirname(require.resolve('deno/package.json')), 'deno');
const denoEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DENO_DIR: process.env.DENO_DIR ?? path.join(PROJECT_ROOT, 'node_modules', '.cache', 'deno'),
  DENO_NO_UPDATE_CHECK: '1',
  NO_COLOR: '1',
  DENO_TLS_CA_STORE: 'system,mozilla',
};

const functionNames = readdirSync(functionsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .map((entry) => entry.name)
  .sort();

/** The import map `supabase functions deploy` uses for a function, or null (GetFunctionConfig in the CLI). */
function deployImportMap(name: string): string | null {
  const config = parse(readFileSync(path.join(supabaseDir, 'config.toml'), 'utf8')) as {
    functions?: Record<string, { import_map?: string }>;
  };
  const configured = config.functions?.[name]?.import_map;
  if (configured) return path.resolve(supabaseDir, configured);
  for (const file of ['deno.json', 'deno.jsonc', 'import_map.json']) {
    const candidate = path.join(functionsDir, name, file);
    if (existsSync(candidate)) return candidate;
  }
  const fallback = path.join(functionsDir, 'import_map.json');
  return existsSync(fallback) ? fallback : null;
}

interface ModuleGraph {
  modules: Array<{ specifier: string; error?: string; dependencies?: Array<{ code?: { error?: string } }> }>;
}

/** A function's module graph as Deno resolves it, and what it could not resolve (imports, modules). */
async function resolve(name: string, importMap: string | null): Promise<{ problems: string[]; modules: string[] }> {
  // A deno.json is read as a config (with the deno.lock beside it, which must already pin every package);
  // an import_map.json as a plain import map. --no-remote: nothing from https:// (jsr, esm.sh).
  const mapArgs = importMap
    ? /deno\.jsonc?$/.test(importMap)
      ? [`--config=${importMap}`, '--frozen-lockfile']
      : ['--no-config', '--no-lock', `--import-map=${importMap}`]
    : ['--no-config', '--no-lock'];
  const graph = await denoInfo(['--no-remote', ...mapArgs, path.join(functionsDir, name, 'index.ts')]);
  const problems = graph.modules.flatMap((module) => [
    ...(module.error ? [`${module.specifier}: ${module.error}`] : []),
    ...(module.dependencies ?? []).flatMap((dependency) =>
      dependency.code?.error ? [`${module.specifier}: ${dependency.code.error}`] : [],
    ),
  ]);
  return { problems, modules: graph.modules.map((module) => module.specifier) };
}

function denoInfo(options: string[]): Promise<ModuleGraph> {
  const args = ['info', '--json', ...options];
  return new Promise((resolve, reject) => {
    const child = spawn(deno, args, { cwd: functionsDir, env: denoEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as ModuleGraph) : reject(new Error(`deno ${args.join(' ')}: ${stderr}`)),
    );
  });
}

beforeAll(async () => {
  // The stack fills this cache at start; filling it here keeps the test independent of that.
  await cacheFunctionDependencies({ deno, functionsDir, env: denoEnv, log: () => {} });
}, 180_000);

describe('supabase functions deploy inputs', () => {
  it('every function in supabase/functions is configured in config.toml', () => {
    expect(Object.keys(loadProjectConfig(supabaseDir).functions).sort()).toEqual(functionNames);
  });

  it.each(functionNames)('%s resolves its whole module graph from its deploy import map', async (name) => {
    const { problems, modules } = await resolve(name, deployImportMap(name));
    expect(problems).toEqual([]);
    const outside = modules.filter((specifier) =>
      specifier.startsWith('file://')
        ? !new URL(specifier).pathname.startsWith(`${functionsDir}/`)
        : !specifier.startsWith('npm:') && !specifier.startsWith('node:'),
    );
    expect(outside).toEqual([]);
  });

  it.each(functionNames)('%s bundles to less than hosted’s 20 MB', async (name) => {
    const sizer = createBundleSizer({
      deno,
      functionsDir,
      env: denoEnv,
      cacheFile: path.join(PROJECT_ROOT, 'node_modules', '.cache', 'mediateca-stack', 'function-bundle-sizes.json'),
    });
    const bytes = await sizer.bytes(name);
    expect(bytes).toBeGreaterThan(1000);
    expect(bytes).toBeLessThan(HOSTED_FREE_PLAN_LIMITS.bundleMb * 1024 * 1024);
  });

  it('would catch a function deployed without an import map', async () => {
    expect((await resolve('staff-users', null)).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/Import "zod" not a dependency/)]),
    );
  });
});
