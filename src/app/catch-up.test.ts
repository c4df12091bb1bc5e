import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterReads } from './catch-up.ts';

/** A query whose one fetch the test lands by hand. */
function readInFlight() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let land: (value: number) => void = () => {};
  const observer = new QueryObserver(client, {
    queryKey: ['files', 'list', {}],
    queryFn: () => new Promise<number>((resolve) => (land = resolve)),
  });
  const stop = observer.subscribe(() => {});
  return { client, land: (value: number) => land(value), stop };
}

// Timers are faked: what the work waits for is the reads, and its deadline.
beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('afterReads', () => {
  it('waits for the reads on their way, then runs once', async () => {
    const { client, land, stop } = readInFlight();
    const work = vi.fn();
    afterReads(client, work);
    await vi.advanceTimersByTimeAsync(1000);
    expect(work).not.toHaveBeenCalled();
    land(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(work).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(work).toHaveBeenCalledTimes(1);
    stop();
  });

  it('runs at once when nothing is being read', () => {
    const work = vi.fn();
    afterReads(new QueryClient(), work);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs by its deadline even while a read never lands', async () => {
    const { client, stop } = readInFlight();
    const work = vi.fn();
    afterReads(client, work);
    await vi.advanceTimersByTimeAsync(1499);
    expect(work).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(work).toHaveBeenCalledTimes(1);
    stop();
  });

  it('never runs once cancelled', async () => {
    const { client, land, stop } = readInFlight();
    const work = vi.fn();
    const cancel = afterReads(client, work);
    cancel();
    land(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(work).not.toHaveBeenCalled();
    stop();
  });
});
