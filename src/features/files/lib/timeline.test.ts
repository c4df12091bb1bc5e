import { describe, expect, it } from 'vitest';
import { fileMonth, monthCursor, monthKeyOf, monthLabel, monthStart } from './timeline.ts';

describe('the timeline months', () => {
  it('names a file by the month of its sort date, in the browser time zone', () => {
    const local = new Date(2026, 2, 31, 23, 30);
    expect(fileMonth({ uploaded_on: local.toISOString() }, 'uploaded_on')).toBe('2026-03');
    expect(fileMonth({ captured_at: null }, 'captured_at')).toBeNull();
    expect(monthKeyOf(new Date(2026, 11, 1))).toBe('2026-12');
    expect(monthLabel('2026-03')).toBe('marzo de 2026');
    expect(monthLabel(null)).toBe('Sin fecha');
  });

  it('builds the keyset cursor that starts a page at the month, newest or oldest first', () => {
    const newest = monthCursor('2026-12', 'uploadedOn_desc');
    expect(new Date(newest.key).getTime()).toBe(new Date(2027, 0, 1).getTime());
    expect(newest.id).toBe('00000000-0000-0000-0000-000000000000');
    const oldest = monthCursor('2026-03', 'uploadedOn_asc');
    expect(oldest.key).toMatch(/\.999999Z$/);
    expect(new Date(oldest.key).getTime()).toBe(monthStart('2026-03').getTime() - 1);
    expect(oldest.id).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
  });
});
