import diagnostics from 'node:diagnostics_channel';
import { SLICE_TIMELINE_CHANNEL, type SliceTimeline } from '@mediateca/stack';
import { percentile } from './report.ts';

/** The stages of SliceTimeline, in the order a change goes through them. */
export const REALTIME_STAGES = ['stream', 'decode', 'visible', 'decide', 'queued', 'deliver'] as const;
type Stage = (typeof REALTIME_STAGES)[number];

/** Per change (each change of a slice counted once), p50 and p95 of every stage and of their sum, ms. */
export interface RealtimeBreakdown {
  changes: number;
  stages: Record<Stage | 'total', { p50: number; p95: number }>;
}

/**
 * Where Realtime's changes spent their time inside the stack (watched in the stack's process, see
 * stack-process-child.ts): the stack publishes each delivered slice's stages (realtime/timeline.ts).
 */
export function watchRealtimeSlices() {
  let slices: SliceTimeline[] = [];
  const onSlice = (message: unknown) => slices.push(message as SliceTimeline);
  diagnostics.subscribe(SLICE_TIMELINE_CHANNEL, onSlice);
  return {
    /** The breakdown of the slices seen since the last call. */
    take(): RealtimeBreakdown {
      const seen = slices;
      slices = [];
      const perChange = (value: (slice: SliceTimeline) => number) =>
        seen.flatMap((slice) => Array<number>(slice.changes).fill(value(slice)));
      const summary = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
      const stages = Object.fromEntries(
        REALTIME_STAGES.map((stage) => [stage, summary(perChange((slice) => slice[stage]))]),
      ) as Record<Stage, { p50: number; p95: number }>;
      const total = summary(perChange((slice) => REALTIME_STAGES.reduce((sum, stage) => sum + slice[stage], 0)));
      return { changes: seen.reduce((sum, slice) => sum + slice.changes, 0), stages: { ...stages, total } };
    },
    stop: () => diagnostics.unsubscribe(SLICE_TIMELINE_CHANNEL, onSlice),
  };
}
