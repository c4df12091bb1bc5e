// Deadlines for everything a function waits on. The runtime ends a worker at its wall clock (150 s on hosted,
// and a request may arrive when its worker is already half that old), so a call to Auth, PostgREST or Storage
// that never answers (a service stalled on a busy machine, a pool waiting for a free connection, a socket to
// a restarted service) would hold the caller's request until the worker is killed and answer nothing useful.
// Every outbound call gets a deadline instead, and a request that met one answers 504 in Spanish.
import { AsyncLocalStorage } from 'node:async_hooks';

const positiveFromEnv = (name: string, fallback: number): number => {
  const value = Number(Deno.env.get(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** How long an outbound call may wait for its response head, and then for each next chunk of its body. */
export const upstreamTimeoutMs = (): number => positiveFromEnv('UPSTREAM_TIMEOUT_MS', 20_000);

/** How long a whole request may take to its response head: well under half the runtime's wall clock. */
export const requestTimeoutMs = (): number => positiveFromEnv('REQUEST_TIMEOUT_MS', 60_000);

export const TIMEOUT_STATUS = 504;
export const TIMEOUT_BODY = {
  code: 'UPSTREAM_TIMEOUT',
  message: 'El servidor tardó demasiado en responder. Inténtalo de nuevo en unos segundos.',
};

/**
 * An outbound call that met its deadline. Its `code` is the one postgrest-js reads as an abort: it gives up
 * at once instead of trying a GET three more times (each with a full deadline of its own).
 */
export class UpstreamTimeoutError extends Error {
  override readonly name = 'UpstreamTimeoutError';
  readonly code = 'ABORT_ERR';
  constructor(
    readonly url: string,
    readonly ms: number,
  ) {
    super(`no answer from ${url} within ${ms} ms`);
  }
}

/**
 * What one request has met so far. supabase-js turns a failed fetch into its own error objects (postgrest-js
 * into a plain `{ message }`, auth-js into AuthRetryableFetchError) and handlers turn those into theirs, so the
 * error that reaches `serve` does not always say it was a timeout: the request's own record does.
 */
interface RequestDeadlines {
  timedOut: UpstreamTimeoutError | null;
}

const current = new AsyncLocalStorage<RequestDeadlines>();

/** Runs one request's handler with its own record of deadlines met. */
export function withDeadlineRecord<T>(work: () => Promise<T>): Promise<T> {
  return current.run({ timedOut: null }, work);
}

/** The deadline the request under way met, if it met one. */
export function timedOutCall(): UpstreamTimeoutError | null {
  return current.getStore()?.timedOut ?? null;
}

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/**
 * `fetch` with deadlines: the response head must come within `ms`, and then each chunk of the body within
 * `ms` of the one before (a long download that keeps flowing is never cut; one that stalls is). A caller's
 * own signal still cancels it. Past a deadline the call rejects, or its body errors, with UpstreamTimeoutError.
 */
export async function fetchWithDeadline(
  input: RequestInfo | URL,
  init: RequestInit = {},
  ms: number = upstreamTimeoutMs(),
): Promise<Response> {
  const url = urlOf(input).split('?')[0] ?? '';
  const record = current.getStore();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const error = new UpstreamTimeoutError(url, ms);
      if (record && !record.timedOut) record.timedOut = error;
      console.error(`deadline: ${error.message}`);
      controller.abort(error);
    }, ms);
  };
  const disarm = () => clearTimeout(timer);
  const signals = [controller.signal];
  const own = init.signal ?? (input instanceof Request ? input.signal : undefined);
  if (own) signals.push(own);

  arm();
  let response: Response;
  try {
    response = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
  } catch (error) {
    disarm();
    throw controller.signal.aborted ? controller.signal.reason : error;
  }
  disarm();
  if (!response.body) return response;

  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      arm();
      try {
        const { done, value } = await reader.read();
        disarm();
        if (done) stream.close();
        else stream.enqueue(value);
      } catch (error) {
        disarm();
        stream.error(controller.signal.aborted ? controller.signal.reason : error);
      }
    },
    cancel(reason) {
      disarm();
      return reader.cancel(reason);
    },
  });
  const wrapped = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // supabase-js and our callers read `url` and `redirected` of some responses; keep them as they were.
  Object.defineProperty(wrapped, 'url', { value: response.url });
  Object.defineProperty(wrapped, 'redirected', { value: response.redirected });
  return wrapped;
}

/** A `fetch` for supabase-js clients (`global.fetch`): every call they make has the deadlines. */
export const deadlineFetch: typeof fetch = (input, init) => fetchWithDeadline(input, init);
