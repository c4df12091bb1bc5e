import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { bearerToken, verifyJwt } from '../jwt.ts';
import { cacheFunctionDependencies } from './deno-cache.ts';
import { sendJson } from '../http/json.ts';
import { createBundleSizer } from './bundle-size.ts';
import { dispatchToWorker, type FunctionRequestUsage } from './dispatch.ts';
import { BOOT_ERROR_BODY, resolveFunctionLimits, type FunctionLimits } from './limits.ts';
import { BootError, FunctionWorker } from './worker.ts';

/**
 * Edge functions at /functions/v1/{name}, run by real Deno (npm `deno`) exactly as written for Supabase, with
 * hosted's limits. Each function runs in workers of its own (one Deno process each, see worker.ts), started
 * on its first request and replaced when one ages out or is ended by a limit, as the edge runtime's user
 * workers are. This side enforces `verify_jwt` from config.toml and hands requests to the workers
 * (dispatch.ts); a function whose bundle is over the size limit does not boot.
 */

export interface FunctionsOptions {
  functionsDir: string;
  postgresUrl: string;
  functions: ProjectConfig['functions'];
  secrets?: Record<string, string>;
  /** Overrides of hosted's limits (tests); otherwise `STACK_FUNCTIONS_*` variables, then hosted's free plan. */
  limits?: Partial<FunctionLimits>;
}

export interface FunctionsService extends MountedService {
  limits: FunctionLimits;
  /** The last requests' usage, newest last (at most 5,000): what the benchmarks compare with the limits. */
  usage(): FunctionRequestUsage[];
}

const USAGE_KEPT = 5_000;

const require = createRequire(import.meta.url);
const workerScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deno/function-worker.ts');
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function denoBinary(): string {
  const packageJson = require.resolve('deno/package.json');
  const candidate = path.join(path.dirname(packageJson), 'deno');
  if (existsSync(candidate)) return candidate;
  return path.join(projectRoot, 'node_modules', '.bin', 'deno');
}

function pick(source: NodeJS.ProcessEnv, keys: string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

export async function createFunctionsService(
  ctx: ServiceContext,
  options: FunctionsOptions,
): Promise<FunctionsService> {
  const limits = resolveFunctionLimits(process.env, options.limits);
  const secretsFile = path.join(options.functionsDir, '.env');
  const usage: FunctionRequestUsage[] = [];
  const workers = new Map<string, FunctionWorker[]>();
  const starting = new Map<string, Promise<FunctionWorker>>();
  let closing = false;

  // A project without supabase/functions is valid: every function is then unknown (404), as on Supabase.
  const hasFunctions = existsSync(options.functionsDir);

  const runtimeEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DENO_DIR: process.env.DENO_DIR ?? path.join(projectRoot, 'node_modules', '.cache', 'deno'),
      DENO_NO_PACKAGE_JSON: '1',
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
      SUPABASE_URL: ctx.apiUrl,
      SUPABASE_ANON_KEY: ctx.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: ctx.serviceRoleKey,
      SUPABASE_DB_URL: options.postgresUrl,
      // As the CLI's ResolveJWKS: the public signing keys and the legacy secret as an `oct` key.
      SUPABASE_JWKS: JSON.stringify(ctx.jwtKeys.servicesJwks()),
      ...options.secrets,
      // Deno downloads npm: packages itself (at stack start, see deno-cache.ts); it must trust the same CAs
      // and proxies as npm on this machine.
      DENO_TLS_CA_STORE: 'system,mozilla',
      ...pick(process.env, ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy']),
    };
    const extraCa = process.env.DENO_CERT ?? process.env.NODE_EXTRA_CA_CERTS ?? process.env.SSL_CERT_FILE;
    if (extraCa) env.DENO_CERT = extraCa;
    return env;
  };

  const bundles = createBundleSizer({
    deno: denoBinary(),
    functionsDir: options.functionsDir,
    env: runtimeEnv(),
    cacheFile: path.join(projectRoot, 'node_modules', '.cache', 'mediateca-stack', 'function-bundle-sizes.json'),
  });

  const startWorker = async (name: string): Promise<FunctionWorker> => {
    let bytes: number;
    try {
      bytes = await bundles.bytes(name);
    } catch (error) {
      throw new BootError(`could not bundle ${name}: ${(error as Error).message}`);
    }
    if (bytes > limits.bundleMb * 1024 * 1024) {
      throw new BootError(
        `${name} is ${(bytes / 1048576).toFixed(1)} MB once bundled, over the ${limits.bundleMb} MB limit`,
      );
    }
    const args = ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', '--no-prompt'];
    // The heap may not outgrow the memory limit either (the sampler also counts buffers outside it).
    args.push(`--v8-flags=--max-old-space-size=${limits.memoryMb}`);
    if (existsSync(path.join(options.functionsDir, 'deno.json'))) {
      args.push(`--config=${path.join(options.functionsDir, 'deno.json')}`);
    }
    if (existsSync(secretsFile)) args.push(`--env-file=${secretsFile}`);
    args.push(workerScript, path.join(options.functionsDir, name, 'index.ts'));
    const worker = await FunctionWorker.start({
      name,
      deno: denoBinary(),
      args,
      env: runtimeEnv(),
      cwd: options.functionsDir,
      limits,
      log: ctx.log,
    });
    if (closing) {
      worker.end();
      throw new BootError('the stack is stopping');
    }
    workers.set(name, [...(workers.get(name) ?? []), worker]);
    return worker;
  };

  /** The function's accepting worker (the least busy), or a new one; one boot at a time per function. */
  const workerFor = async (name: string): Promise<FunctionWorker> => {
    // Workers stay listed until their process is gone, so stopping the stack ends every one of them.
    const live = (workers.get(name) ?? []).filter((worker) => !worker.exited);
    workers.set(name, live);
    const accepting = live.filter((worker) => worker.accepting).sort((a, b) => a.busy - b.busy)[0];
    if (accepting) return accepting;
    let boot = starting.get(name);
    if (!boot) {
      boot = startWorker(name).finally(() => starting.delete(name));
      starting.set(name, boot);
    }
    return boot;
  };

  if (hasFunctions) {
    await cacheFunctionDependencies({
      deno: denoBinary(),
      functionsDir: options.functionsDir,
      env: runtimeEnv(),
      log: ctx.log,
    });
  }

  const record = (entry: FunctionRequestUsage) => {
    usage.push(entry);
    if (usage.length > USAGE_KEPT) usage.splice(0, usage.length - USAGE_KEPT);
  };

  return {
    limits,
    usage: () => [...usage],
    async handle(req, res, subpath) {
      const name = new URL(subpath, 'http://functions.local').pathname.split('/')[1] ?? '';
      const verify = options.functions[name]?.verifyJwt ?? true;
      if (verify && req.method !== 'OPTIONS') {
        const authorization = req.headers.authorization;
        if (!authorization) return sendJson(res, 401, { msg: 'Error: Missing authorization header' });
        const token = bearerToken(authorization);
        if (!token) return sendJson(res, 401, { msg: "Error: Auth header is not 'Bearer {token}'" });
        try {
          await verifyJwt(token, ctx.jwtKeys);
        } catch {
          return sendJson(res, 401, { msg: 'Invalid JWT' });
        }
      }
      const known =
        hasFunctions &&
        /^[A-Za-z0-9_-]+$/.test(name) &&
        !name.startsWith('_') &&
        existsSync(path.join(options.functionsDir, name, 'index.ts'));
      if (!known) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('Function not found');
        return;
      }
      let worker: FunctionWorker;
      try {
        worker = await workerFor(name);
      } catch (error) {
        ctx.log(`function ${name} failed to boot: ${(error as Error).message}`);
        res.setHeader('sb-error-code', 'BOOT_ERROR');
        return sendJson(res, 503, BOOT_ERROR_BODY);
      }
      dispatchToWorker(req, res, subpath, worker, name, limits, record);
    },
    async close() {
      closing = true;
      await Promise.allSettled([...starting.values()]);
      for (const list of workers.values()) for (const worker of list) worker.end();
      workers.clear();
    },
  };
}
