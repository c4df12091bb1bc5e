// Runs inside Deno (not Node): one edge function in one process, as the edge runtime runs each function in
// a user worker of its own. The function module calls `Deno.serve(...)` or exports `default { fetch }`; its
// handler is captured instead of letting it bind a port, the module is imported once (the boot), and only
// then does this worker listen, on a port the OS picks. The first line it prints tells the supervisor
// (stack/src/functions/worker.ts) the outcome: {"ready": port} or {"bootError": message}.

type Handler = (request: Request, info?: unknown) => Response | Promise<Response>;

const [entry] = Deno.args;
const realServe = Deno.serve.bind(Deno);

// Background work a function hands to the runtime outlives its response, as on the edge runtime.
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

async function boot(): Promise<Handler> {
  let captured: Handler | undefined;
  (Deno as { serve: unknown }).serve = (...args: unknown[]) => {
    captured = handlerFromServeArgs(args);
    return {
      finished: new Promise(() => {}),
      shutdown: async () => {},
      ref() {},
      unref() {},
      addr: { transport: 'tcp', hostname: '127.0.0.1', port: 0 },
    };
  };
  try {
    const module = await import(new URL(`file://${entry}`).href);
    captured ??= typeof module.default?.fetch === 'function' ? module.default.fetch.bind(module.default) : undefined;
  } finally {
    (Deno as { serve: unknown }).serve = realServe;
  }
  if (!captured) throw new Error('the module neither calls Deno.serve nor exports default { fetch }');
  return captured;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'sb-error-code': 'WORKER_ERROR' },
  });

// The supervisor holds this process's stdin open: at its end (the stack stopped, or its process died without
// stopping us) this worker ends too, instead of living on unsupervised.
(async () => {
  for await (const _ of Deno.stdin.readable) {
    // Nothing is ever sent; the loop only waits for the end.
  }
  Deno.exit(0);
})();

let handler: Handler;
try {
  handler = await boot();
} catch (error) {
  console.log(JSON.stringify({ bootError: error instanceof Error ? error.message : String(error) }));
  Deno.exit(1);
}

realServe(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(JSON.stringify({ ready: port })),
  },
  async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      console.error('function threw:', error);
      return json(500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
    }
  },
);
