/**
 * Deadlines for the app's requests to the API. A request that never answers (a service stalled on a busy
 * server) would otherwise leave a screen on its skeletons for good; with a deadline it fails, and the screen
 * says so with a way to try again. Only the wait for the response head is timed: a download that has started
 * streams as long as it needs. Storage transfers (uploads, object downloads) are left alone entirely.
 */

/** A read (a screen's data) answers within this, or the screen says it could not load (within 15 s). */
export const READ_DEADLINE_MS = 12_000;

/**
 * A write may do more (a function's work, mail): it gets longer than an edge function's own request deadline
 * (60 s), so the function's own answer (a 504 in Spanish) arrives first.
 */
export const WRITE_DEADLINE_MS = 70_000;

/**
 * The request met its deadline. `code` is what postgrest-js reads as an abort: it gives up at once instead of
 * trying a GET three more times, each with a full deadline of its own.
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'ABORT_ERR';
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * Whether an error is a request's deadline: ours as it is, wrapped by functions-js (FunctionsFetchError keeps
 * it as `context`), or flattened by postgrest-js into a message "TimeoutError: …".
 */
export function isRequestTimeout(error: unknown): boolean {
  if (error instanceof RequestTimeoutError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const value = error as { name?: unknown; message?: unknown; context?: unknown };
  if (value.name === 'TimeoutError') return true;
  if (typeof value.message === 'string' && value.message.startsWith('TimeoutError:')) return true;
  return value.context !== undefined && value.context !== error && isRequestTimeout(value.context);
}

const STORAGE_TRANSFER = /\/storage\/v1\/(object|upload)\/(?!sign\/|list\/|info\/)/;

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

const methodOf = (input: RequestInfo | URL, init?: RequestInit): string =>
  (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();

/** The deadline of one request, or null for a storage transfer (its length is the file's). */
export function deadlineFor(input: RequestInfo | URL, init?: RequestInit): number | null {
  const method = methodOf(input, init);
  if (STORAGE_TRANSFER.test(urlOf(input)) && method !== 'DELETE') return null;
  return method === 'GET' || method === 'HEAD' ? READ_DEADLINE_MS : WRITE_DEADLINE_MS;
}

/**
 * A `fetch` for the Supabase client: the response head must come within the request's deadline, else the call
 * rejects with RequestTimeoutError. The caller's own signal (a query cancelled, a function call's own deadline)
 * still cancels it as before.
 */
export function fetchWithDeadline(base: typeof fetch = (...args) => fetch(...args)): typeof fetch {
  return async (input, init) => {
    const ms = deadlineFor(input, init);
    if (ms === null) return base(input, init);
    const controller = new AbortController();
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const forward = () => controller.abort(own?.reason);
    if (own?.aborted) forward();
    else own?.addEventListener('abort', forward, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new RequestTimeoutError(ms));
    }, ms);
    try {
      return await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      if (timedOut) throw new RequestTimeoutError(ms);
      // A caller's deadline (readSignal) stays recognisable whatever the browser rejects with.
      if (own?.aborted && own.reason instanceof RequestTimeoutError) throw own.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      own?.removeEventListener('abort', forward);
    }
  };
}

/**
 * A signal for a read made through an edge function (always a POST, so the client's write deadline applies):
 * the query's own signal, plus the read deadline.
 */
export function readSignal(signal?: AbortSignal): AbortSignal {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new RequestTimeoutError(READ_DEADLINE_MS)), READ_DEADLINE_MS);
  const forward = () => {
    clearTimeout(timer);
    deadline.abort(signal?.reason);
  };
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  return deadline.signal;
}
