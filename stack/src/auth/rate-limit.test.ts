import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { IntervalLimiter, RateLimiter, rateLimitKey } from './rate-limit.ts';
import { rememberReceivedHeaders } from '../http/received-headers.ts';

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

describe('rateLimitKey (performRateLimitingWithHeader)', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('keys on the first value of the configured header as the client sent it', () => {
    const req = request({ 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1' });
    rememberReceivedHeaders(req);
    req.headers['x-forwarded-for'] = '203.0.113.7 , 10.0.0.1, 127.0.0.1';
    expect(rateLimitKey(req, 'X-Forwarded-For')).toBe('203.0.113.7');
    expect(rateLimitKey(request({ 'x-real-ip': '192.0.2.1' }), 'X-Real-IP')).toBe('192.0.2.1');
  });

  it('applies no limit without a header name, without the header, or with an empty first value', () => {
    const appendedByGateway = request({});
    rememberReceivedHeaders(appendedByGateway);
    appendedByGateway.headers['x-forwarded-for'] = '127.0.0.1';
    expect(rateLimitKey(appendedByGateway, 'X-Forwarded-For')).toBeNull();
    expect(rateLimitKey(request({ 'x-forwarded-for': '1.2.3.4' }), null)).toBeNull();
    expect(rateLimitKey(request({ 'x-forwarded-for': ' , 1.2.3.4' }), 'X-Forwarded-For')).toBeNull();
  });
});

describe('IntervalLimiter (GoTrue e-mail limit)', () => {
  it('allows `events` per hour for the whole project, counted afresh each hour', () => {
    const start = 5_000_000;
    const limiter = new IntervalLimiter(2, 3_600_000, start);
    expect([limiter.take(start), limiter.take(start + 1), limiter.take(start + 2)]).toEqual([true, true, false]);
    expect(limiter.take(start + 3_599_999)).toBe(false);
    expect(limiter.take(start + 3_600_000)).toBe(true);
    expect(new IntervalLimiter(0, 3_600_000, start).take(start)).toBe(false);
  });
});
