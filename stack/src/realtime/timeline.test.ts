import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLICE_TIMELINE_CHANNEL, SliceMarks, type SliceTimeline } from './timeline.ts';

afterEach(() => vi.useRealTimers());

describe('SliceMarks', () => {
  it("publishes each stage's share of a slice's time, from its commit to its frames sent", () => {
    vi.useFakeTimers({ now: 10_000 });
    const seen: SliceTimeline[] = [];
    const listen = (message: unknown) => seen.push(message as SliceTimeline);
    diagnostics.subscribe(SLICE_TIMELINE_CHANNEL, listen);
    try {
      // Committed at 9 990, its BEGIN received at 9 995, decoded by 10 000.
      const marks = new SliceMarks(9_990, 9_995, 20);
      for (const ms of [3, 12, 4, 1]) {
        vi.advanceTimersByTime(ms);
        marks.mark();
      }
      marks.publish();
    } finally {
      diagnostics.unsubscribe(SLICE_TIMELINE_CHANNEL, listen);
    }
    expect(seen).toEqual([{ changes: 20, stream: 5, decode: 5, visible: 3, decide: 12, queued: 4, deliver: 1 }]);
  });
});
