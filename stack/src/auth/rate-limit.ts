import type { IncomingMessage } from 'node:http';
import { receivedHeader } from '../http/received-headers.ts';

/**
 * GoTrue's request rate limits (internal/api/apilimiter): a token bucket per client and endpoint group,
 * refilled at `limit / period` per second with a burst (30 for the per-5-minute groups, so the 31st request in
 * a quick row is refused with 429 `over_request_rate_limit` 'Request rate limit reached').
 */
const IDLE_MS = 60 * 60 * 1000;

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perSecond: number;

  constructor(
    limit: number,
    periodSeconds = 300,
    private readonly burst = 30,
  ) {
    this.perSecond = limit / periodSeconds;
  }

  /** Takes one request from `key`'s bucket; false when it is empty. */
  take(key: string, now = Date.now()): boolean {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
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

/**
 * Whose bucket a request takes from, as GoTrue's `performRateLimitingWithHeader`: the first comma-separated
 * value of the configured header (`GOTRUE_RATE_LIMIT_HEADER`) as the client or a proxy in front of the stack
 * sent it. No header configured, no such header, or an empty first value: null, and no limit applies — which
 * is how `supabase start` runs GoTrue (no header set), while hosted Supabase's edge always sets
 * X-Forwarded-For to the caller's address.
 */
export function rateLimitKey(req: IncomingMessage, header: string | null): string | null {
  if (!header) return null;
  const value = receivedHeader(req, header);
  const key = value?.split(',')[0]?.trim();
  return key ? key : null;
}

/**
 * GoTrue's e-mail limit (`GOTRUE_RATE_LIMIT_EMAIL_SENT`, ratelimit.IntervalLimiter): one counter for the whole
 * project, `events` mails per hour, reset each hour from when the server started; 0 refuses every mail.
 */
export class IntervalLimiter {
  private windowStart: number;
  private count = 0;

  constructor(
    private readonly events: number,
    private readonly intervalMs = 60 * 60 * 1000,
    now = Date.now(),
  ) {
    this.windowStart = now;
  }

  take(now = Date.now()): boolean {
    const elapsed = Math.floor((now - this.windowStart) / this.intervalMs);
    if (elapsed > 0) {
      this.windowStart += elapsed * this.intervalMs;
      this.count = 0;
    }
    if (this.count >= this.events) return false;
    this.count += 1;
    return true;
  }
}
