import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, PROJECT_ROOT, type RunningStack } from '../src/stack.ts';

/**
 * Hosted's Edge Function limits, enforced by the stack's functions runtime: each limit is proven with a
 * function that goes over it, answered as hosted answers (546 WORKER_LIMIT, 504 IDLE_TIMEOUT, 503 BOOT_ERROR),
 * and the next request served by a fresh worker. The wall clock and idle timeout are shortened here (hosted's
 * are 150 s); CPU and memory are hosted's own 2 s and 256 MB.
 */

let stack: RunningStack;
const WALL_CLOCK_MS = 16_000;
const IDLE_TIMEOUT_MS = 10_000;

const call = (name: string, init?: RequestInit & { query?: string }) =>
  fetch(`${stack.apiUrl}/functions/v1/${name}${init?.query ?? ''}`, init);

const lastUsage = (name: string) =>
  stack
    .functionUsage()
    .filter((entry) => entry.function === name)
    .at(-1);

beforeAll(async () => {
  stack = await startStack({
    ephemeral: true,
    supabaseDir: path.join(PROJECT_ROOT, 'stack/tests/fixtures/functions-project'),
    functionLimits: { wallClockMs: WALL_CLOCK_MS, idleTimeoutMs: IDLE_TIMEOUT_MS },
    jobWorker: false,
    log: process.env.STACK_LOG === '1' ? (message) => console.log(`[stack] ${message}`) : () => {},
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('Edge Function limits as on hosted Supabase', () => {
  it('has the free plan limits unless told otherwise', () => {
    expect(stack.functionLimits).toMatchObject({ cpuMs: 2000, memoryMb: 256, bundleMb: 20, customDomain: false });
  });

  it('ends a request past 2 s of CPU with 546 WORKER_LIMIT, and serves the next from a fresh worker', async () => {
    const burnt = await call('burn-cpu', { query: '?ms=4000' });
    expect(burnt.status).toBe(546);
    expect(burnt.headers.get('sb-error-code')).toBe('WORKER_RESOURCE_LIMIT');
    expect(await burnt.json()).toEqual({
      code: 'WORKER_LIMIT',
      message: 'Function failed due to not having enough compute resources (please check logs)',
    });
    const usage = lastUsage('burn-cpu')!;
    expect(usage.limit).toBe('CPUTime');
    expect(usage.cpuMs).toBeGreaterThan(2000);
    // Killed when it crossed the limit, not when it would have finished its 4 s.
    expect(usage.cpuMs).toBeLessThan(3000);

    const next = await call('burn-cpu', { query: '?ms=200' });
    expect(next.status).toBe(200);
    expect(lastUsage('burn-cpu')).toMatchObject({ status: 200, limit: null });
  });

  it('lets a request use most of its CPU time', async () => {
    const response = await call('burn-cpu', { query: '?ms=1200' });
    expect(response.status).toBe(200);
    expect(lastUsage('burn-cpu')!.cpuMs).toBeGreaterThan(900);
  });

  it('ends a worker that grows past 256 MB with 546, and a modest one answers', async () => {
    const grown = await call('hold-memory', { query: '?mb=400' });
    expect(grown.status).toBe(546);
    expect(await grown.json()).toMatchObject({ code: 'WORKER_LIMIT' });
    expect(lastUsage('hold-memory')).toMatchObject({ limit: 'Memory' });

    const modest = await call('hold-memory', { query: '?mb=48' });
    expect(modest.status).toBe(200);
    expect(await modest.json()).toEqual({ held: 48 });
  });

  it('answers 504 IDLE_TIMEOUT when a function sends nothing before the idle timeout', async () => {
    const started = Date.now();
    const response = await call('silent', { query: '?ms=60000' });
    expect(response.status).toBe(504);
    expect(response.headers.get('sb-error-code')).toBe('IDLE_TIMEOUT');
    expect(await response.json()).toMatchObject({ code: 'IDLE_TIMEOUT' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 100);
  });

  it("cuts a response still streaming when its worker's wall clock runs out", async () => {
    const response = await call('stream-forever');
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let ticks = 0;
    let cut = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        ticks += new TextDecoder().decode(value).split('tick').length - 1;
      }
    } catch {
      cut = true;
    }
    // Ended by the runtime (connection closed or the stream ended), within the wall clock and a sample.
    expect(cut || ticks > 0).toBe(true);
    await expect.poll(() => lastUsage('stream-forever')?.limit).toBe('WallClockTime');
    expect(lastUsage('stream-forever')!.wallMs).toBeLessThanOrEqual(WALL_CLOCK_MS + 1000);
  }, 60_000);

  it('serves text/html to GET as text/plain without a custom domain, and as html with one', async () => {
    const plain = await call('html-page');
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await plain.text()).toContain('<title>Hola</title>');
    const posted = await call('html-page', { method: 'POST' });
    expect(posted.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await posted.arrayBuffer();

    stack.functionLimits.customDomain = true;
    try {
      const html = await call('html-page');
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      await html.arrayBuffer();
    } finally {
      stack.functionLimits.customDomain = false;
    }
  });

  it('does not boot a function whose bundle is over the size limit (503 BOOT_ERROR)', async () => {
    // Every fixture function bundles far under hosted's 20 MB; a limit below public-echo's size stands in
    // for a bundle over it. A new worker is measured when it starts, so the function must not be running yet.
    stack.functionLimits.bundleMb = 0.0001;
    try {
      const refused = await call('public-echo', { method: 'POST', body: 'eco' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('sb-error-code')).toBe('BOOT_ERROR');
      expect(await refused.json()).toEqual({
        code: 'BOOT_ERROR',
        message: 'Worker failed to boot (please check logs)',
      });
    } finally {
      stack.functionLimits.bundleMb = 20;
    }
    const served = await call('public-echo', { method: 'POST', body: 'eco' });
    expect(await served.text()).toBe('eco');
  });
});
