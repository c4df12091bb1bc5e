import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The size of a function once bundled, which hosted Supabase caps at 20 MB ("after bundling using CLI"):
 * `deno bundle` of its entry point with the functions' import map, npm packages included, which is what
 * `supabase functions deploy` packs. Bundling takes a few seconds, so sizes are kept in a cache file keyed by
 * the contents of the functions directory; an edit to any function or to the lock file measures again.
 */

const run = promisify(execFile);

export interface BundleSizeOptions {
  deno: string;
  functionsDir: string;
  env: NodeJS.ProcessEnv;
  cacheFile: string;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => entry.name !== '.env' && !entry.name.startsWith('.'))
      .map((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? filesUnder(full) : Promise.resolve([full]);
      }),
  );
  return nested.flat().sort();
}

/** One digest of every file a function's bundle may include (all functions share _shared and the lock). */
export async function functionsDigest(functionsDir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await filesUnder(functionsDir)) {
    hash.update(path.relative(functionsDir, file)).update('\0');
    hash.update(await readFile(file)).update('\0');
  }
  return hash.digest('hex');
}

type Cache = Record<string, number>;

export function createBundleSizer(options: BundleSizeOptions) {
  const measuring = new Map<string, Promise<number>>();

  const readCache = async (): Promise<Cache> => {
    try {
      return JSON.parse(await readFile(options.cacheFile, 'utf8')) as Cache;
    } catch {
      return {};
    }
  };

  const measure = async (name: string, key: string): Promise<number> => {
    const cached = (await readCache())[key];
    if (cached !== undefined) return cached;
    const outDir = await mkdtemp(path.join(tmpdir(), 'function-bundle-'));
    try {
      const output = path.join(outDir, `${name}.js`);
      const args = ['bundle', '--quiet', '--no-check'];
      const config = path.join(options.functionsDir, 'deno.json');
      if (await stat(config).catch(() => null)) args.push(`--config=${config}`);
      args.push('--output', output, path.join(options.functionsDir, name, 'index.ts'));
      await run(options.deno, args, { cwd: options.functionsDir, env: options.env, maxBuffer: 16 * 1024 * 1024 });
      const { size } = await stat(output);
      await mkdir(path.dirname(options.cacheFile), { recursive: true });
      await writeFile(options.cacheFile, JSON.stringify({ ...(await readCache()), [key]: size }));
      return size;
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  };

  return {
    /** Bytes of the function's bundle; rejects when it cannot be bundled (that is a boot error too). */
    async bytes(name: string): Promise<number> {
      // Read again at each worker start: a worker started after an edit runs (and is measured with) the edit.
      const key = `${await functionsDigest(options.functionsDir)}:${name}`;
      let pending = measuring.get(key);
      if (!pending) {
        pending = measure(name, key);
        measuring.set(key, pending);
        pending.catch(() => measuring.delete(key));
      }
      return pending;
    },
  };
}
