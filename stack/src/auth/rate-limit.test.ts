import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('RateLimiter (GoTrue token bucket)', () => {
  it('allows a burst of 30, then one request per 300/limit seconds, per key', () => {
    const limiter = new RateLimiter(150); // one every 2 s
    const start = 1_000_000;
    const burst = Array.from({ length: 31 }, () => limiter.take('1.2.3.4', start));
    expect(burst.filter(Boolean)).toHaveLength(30);
    expect(burst[30]).toBe(false);
    expect(limiter.take('5.6.7.8', start)).toBe(true);
    expect(limiter.take('1.2.3.4', start + 1_000)).toBe(false);
    expect(limiter.take('1.2.3.4', start + 2_000)).toBe(true);
    expect(limiter.take('1.2.3.4', start + 2_100)).toBe(false);
    // A long pause refills the bucket only up to the burst.
    const later = Array.from({ length: 31 }, () => limiter.take('1.2.3.4', start + 3_600_000));
    expect(later.filter(Boolean)).toHaveLength(30);
  });
});
