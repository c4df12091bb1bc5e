import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { bearerToken, verifyJwt } from '../jwt.ts';
import { freePort, waitForHttp } from '../net.ts';
import { cacheFunctionDependencies } from './deno-cache.ts';
import { sendJson } from '../http/json.ts';
import { proxyRequest } from '../http/proxy.ts';

/**
 * Edge functions at /functions/v1/{name}, run by real Deno (npm `deno`) exactly as written for Supabase.
 * One Deno process serves every function through a small router;
 * this side enforces `verify_jwt` from config.toml, streams bodies both ways, and restarts Deno if it dies.
 */

export interface FunctionsOptions {
  functionsDir: string;
  postgresUrl: string;
  functions: ProjectConfig['functions'];
  secrets?: Record<string, string>;
}

const require = createRequire(import.meta.url);
const routerScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deno/functions-router.ts');
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const GATEWAY_READ_TIMEOUT_MS = 150_000;

export function denoBinary(): string {
  const packageJson = require.resolve('deno/package.json');
  const candidate = path.join(path.dirname(packageJson), 'deno');
  if (existsSync(candidate)) return candidate;
  return path.join(projectRoot, 'node_modules', '.bin', 'deno');
}

function pick(source: NodeJS.ProcessEnv, keys: string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

export async function createFunctionsService(ctx: ServiceContext, options: FunctionsOptions): Promise<MountedService> {
  const port = await freePort();
  const secretsFile = path.join(options.functionsDir, '.env');
  let child: ChildProcess | undefined;
  let ready: Promise<void> = Promise.resolve();
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

  const start = () => {
    const args = ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', '--no-prompt'];
    if (existsSync(path.join(options.functionsDir, 'deno.json'))) {
      args.push(`--config=${path.join(options.functionsDir, 'deno.json')}`);
    }
    if (existsSync(secretsFile)) args.push(`--env-file=${secretsFile}`);
    args.push(routerScript, options.functionsDir, String(port));
    const env = runtimeEnv();
    child = spawn(denoBinary(), args, { cwd: options.functionsDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Without a listener a failed spawn (missing binary, unreadable dir) is an uncaught error that kills the
    // whole stack process and leaves Postgres and PostgREST running; the 'exit' handler below restarts it.
    child.once('error', (error) => ctx.log(`could not start Deno: ${error.message}`));
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) ctx.log(line);
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    child.once('exit', (code, signal) => {
      if (closing) return;
      ctx.log(`Deno exited (${code ?? signal}); restarting`);
      setTimeout(() => !closing && start(), 500);
    });
    ready = waitForHttp(`http://127.0.0.1:${port}/_internal/health`, { timeoutMs: 60_000, failFast: exited });
    ready.catch((error: unknown) => ctx.log(`functions runtime not ready: ${(error as Error).message}`));
  };
  if (hasFunctions) {
    await cacheFunctionDependencies({
      deno: denoBinary(),
      functionsDir: options.functionsDir,
      env: runtimeEnv(),
      log: ctx.log,
    });
    start();
  }

  const proxy = (req: IncomingMessage, res: ServerResponse, subpath: string) =>
    proxyRequest(req, res, {
      target: new URL(subpath, `http://127.0.0.1:${port}`),
      timeoutMs: GATEWAY_READ_TIMEOUT_MS,
      preserveHost: true,
      // Functions stream their output (server-sent events, progress): the head goes out at once.
      flushHeaders: true,
      onError: (error) => {
        ctx.log(`function request failed: ${error.message}`);
        sendJson(res, 502, { code: 'WORKER_ERROR', message: 'The function runtime did not answer' });
      },
    });

  return {
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
      if (!hasFunctions) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('Function not found');
        return;
      }
      try {
        await ready;
      } catch {
        return sendJson(res, 503, { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
      }
      proxy(req, res, subpath);
    },
    async close() {
      closing = true;
      if (child?.pid && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
