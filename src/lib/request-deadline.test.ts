import { afterEach, describe, expect, it, vi } from 'vitest';
import { isWorthRetrying, spanishError } from './errors.ts';
import {
  READ_DEADLINE_MS,
  RequestTimeoutError,
  WRITE_DEADLINE_MS,
  deadlineFor,
  fetchWithDeadline,
  isRequestTimeout,
  readSignal,
} from './request-deadline.ts';

/** A fetch that never answers, as a stalled server's: it only ends when its signal aborts. */
const silentFetch: typeof fetch = (_input, init) =>
  new Promise((_, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('the app’s request deadline', () => {
  it('ends a read that never answers with RequestTimeoutError at the read deadline', async () => {
    vi.useFakeTimers();
    let settled = false;
    const request = fetchWithDeadline(silentFetch)('http://api.local/rest/v1/tags?select=*');
    request.catch(() => {}).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(READ_DEADLINE_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(request).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('gives reads 12 s, writes longer, and leaves storage transfers alone', () => {
    expect(READ_DEADLINE_MS).toBeLessThan(15_000);
    expect(deadlineFor('http://api.local/rest/v1/files?select=id')).toBe(READ_DEADLINE_MS);
    expect(deadlineFor('http://api.local/functions/v1/staff-users', { method: 'POST' })).toBe(WRITE_DEADLINE_MS);
    expect(deadlineFor('http://api.local/storage/v1/object/media/a/b.jpg', { method: 'POST' })).toBeNull();
    expect(deadlineFor('http://api.local/storage/v1/object/media/a/b.jpg')).toBeNull();
    expect(deadlineFor('http://api.local/storage/v1/object/sign/media/a/b.jpg', { method: 'POST' })).toBe(
      WRITE_DEADLINE_MS,
    );
  });

  it('passes an answer through, and a caller’s cancellation stays a cancellation', async () => {
    const answered = await fetchWithDeadline(async () => new Response('ok'))('http://api.local/rest/v1/x');
    expect(await answered.text()).toBe('ok');
    const controller = new AbortController();
    const request = fetchWithDeadline(silentFetch)('http://api.local/rest/v1/x', { signal: controller.signal });
    controller.abort(new DOMException('cancelled', 'AbortError'));
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('ends a function read (a POST) at the read deadline through readSignal', async () => {
    vi.useFakeTimers();
    const request = fetchWithDeadline(silentFetch)('http://api.local/functions/v1/staff-users', {
      method: 'POST',
      signal: readSignal(),
    });
    request.catch(() => {});
    await vi.advanceTimersByTimeAsync(READ_DEADLINE_MS);
    await expect(request).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('is recognised however supabase-js wraps it, said in Spanish, and not retried behind the person’s back', () => {
    const timeout = new RequestTimeoutError(READ_DEADLINE_MS);
    const wrappedByFunctions = { name: 'FunctionsFetchError', message: 'Failed to send a request', context: timeout };
    const flattenedByPostgrest = { message: 'TimeoutError: no answer within 12000 ms', code: 'ABORT_ERR' };
    for (const error of [timeout, wrappedByFunctions, flattenedByPostgrest]) {
      expect(isRequestTimeout(error)).toBe(true);
      expect(spanishError(error)).toBe('El servidor tardó demasiado en responder. Inténtalo de nuevo.');
      expect(isWorthRetrying(error)).toBe(false);
    }
    expect(isRequestTimeout(new Error('Failed to fetch'))).toBe(false);
  });
});
