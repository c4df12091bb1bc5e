import { describe, expect, it } from 'vitest';
import { addDays, madridToday, rightsState } from './rights.ts';

describe('rights expiry', () => {
  it("is 'expired' from the day after the last day, 'expiring' in the 30 days up to it", () => {
    const today = '2026-11-27';
    expect(rightsState(null, today)).toBeNull();
    expect(rightsState('2026-11-26', today)).toBe('expired');
    expect(rightsState('2026-11-27', today)).toBe('expiring');
    expect(rightsState(addDays(today, 29), today)).toBe('expiring');
    expect(rightsState(addDays(today, 30), today)).toBeNull();
  });

  it("takes today's date in Madrid, not in the reader's time zone", () => {
    // 23:30 UTC on 31 December is already New Year's Day in Madrid (UTC+1 in winter).
    expect(madridToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(madridToday(new Date('2026-07-15T21:59:00Z'))).toBe('2026-07-15');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });
});
