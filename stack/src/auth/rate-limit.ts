/**
 * GoTrue's request rate limits (internal/api/apilimiter): a token bucket per client address and endpoint
 * group, refilled at `perFiveMinutes / 300` per second with a burst of 30, so the 31st request in a quick row
 * is refused with 429 `over_request_rate_limit` 'Request rate limit reached'. The address is the first
 * X-Forwarded-For value when a proxy sets one (hosted Supabase's gateway does), else the socket's.
 */
const BURST = 30;
const IDLE_MS = 60 * 60 * 1000;

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perSecond: number;

  constructor(perFiveMinutes: number) {
    this.perSecond = perFiveMinutes / 300;
  }

  /** Takes one request from `key`'s bucket; false when it is empty. */
  take(key: string, now = Date.now()): boolean {
    const bucket = this.buckets.get(key) ?? { tokens: BURST, at: now };
    bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.forgetIdle(now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private forgetIdle(now: number) {
    for (const [key, bucket] of this.buckets) if (now - bucket.at > IDLE_MS) this.buckets.delete(key);
  }
}
