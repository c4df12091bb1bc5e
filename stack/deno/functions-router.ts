// Runs inside Deno (not Node): serves every Supabase edge function of a directory on one port, the way
// the edge runtime's main worker does under `supabase start`. A function module calls `Deno.serve(...)`
// or exports `default { fetch }`; we capture its handler instead of letting it bind a port of its own.

type Handler = (request: Request, info?: unknown) => Response | Promise<Response>;

const [functionsDir, portArgument] = Deno.args;
const port = Number(portArgument);
const handlers = new Map<string, Promise<Handler>>();
const realServe = Deno.serve.bind(Deno);

(globalThis as Record<string, unknown>).EdgeRuntime = {
  waitUntil(promise: Promise<unknown>) {
    promise.catch((error) => console.error('EdgeRuntime.waitUntil task failed:', error));
  },
};

function handlerFromServeArgs(args: unknown[]): Handler | undefined {
  for (const arg of args) {
    if (typeof arg === 'function') return arg as Handler;
    if (arg && typeof arg === 'object' && typeof (arg as { handler?: unknown }).handler === 'function') {
      return (arg as { handler: Handler }).handler;
    }
  }
  return undefined;
}

async function load(name: string): Promise<Handler> {
  const entry = `${functionsDir}/${name}/index.ts`;
  await Deno.stat(entry);
  let captured: Handler | undefined;
  (Deno as { serve: unknown }).serve = (...args: unknown[]) => {
    captured = handlerFromServeArgs(args);
    return {
      finished: new Promise(() => {}),
      shutdown: async () => {},
      ref() {},
      unref() {},
      addr: { transport: 'tcp', hostname: '127.0.0.1', port },
    };
  };
  try {
    const module = await import(new URL(`file://${entry}`).href);
    captured ??= typeof module.default?.fetch === 'function' ? module.default.fetch.bind(module.default) : undefined;
  } finally {
    (Deno as { serve: unknown }).serve = realServe;
  }
  if (!captured) throw new Error(`${name}/index.ts neither calls Deno.serve nor exports default { fetch }`);
  return captured;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

realServe(
  { hostname: '127.0.0.1', port, onListen: () => console.log(`functions router listening on ${port}`) },
  async (request) => {
    const url = new URL(request.url);
    const name = url.pathname.split('/')[1] ?? '';
    if (name === '_internal' && url.pathname === '/_internal/health') return new Response('ok');
    if (!/^[A-Za-z0-9_-]+$/.test(name) || name.startsWith('_')) {
      return new Response('Function not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
    let handler = handlers.get(name);
    if (!handler) {
      handler = load(name);
      handlers.set(name, handler);
    }
    let fn: Handler;
    try {
      fn = await handler;
    } catch (error) {
      handlers.delete(name);
      if (error instanceof Deno.errors.NotFound) {
        return new Response('Function not found', { status: 404, headers: { 'content-type': 'text/plain' } });
      }
      console.error(`function ${name} failed to boot:`, error);
      return json(503, { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
    }
    try {
      return await fn(request);
    } catch (error) {
      console.error(`function ${name} threw:`, error);
      return json(500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
    }
  },
);
