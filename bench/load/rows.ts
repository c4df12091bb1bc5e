import type { BenchRow } from '../lib/report.ts';
import type { FaultEvent } from './faults.ts';
import type { MachineLoad } from './machine.ts';
import type { LoopDelay } from '../lib/stack-process.ts';
import type { Metrics, RequestKind } from './metrics.ts';
import type { Subscriber } from './subscribers.ts';
import { REALTIME_STAGES, type RealtimeBreakdown } from '../lib/realtime-timeline.ts';
import type { EditCheck, JobCheck, UploadCheck } from './verify.ts';
import { POSTGRES_SHARED_MEMORY, type PartMemory } from './processes.ts';

/** The run's figures as the benchmarks' table rows: each p95 beside the one-user p95 of the same run. */
const KINDS: RequestKind[] = [
  'sign in',
  'search (first page of 100)',
  'scroll (next page of 50)',
  'open a file',
  'save a file (update_file)',
  'bulk tag 20 files (set_files_tags)',
  'upload a 6 MiB chunk (TUS PATCH)',
  'realtime change delivered',
];

const count = (metric: string, value: number, goal: string): BenchRow => ({
  metric,
  unit: '',
  value,
  baseline: null,
  baselineLabel: '',
  goal,
  higherIsBetter: false,
});

export interface LoadOutcome {
  label: string;
  metrics: Metrics;
  edits: EditCheck;
  uploads: UploadCheck;
  jobs: JobCheck;
  subscribers: Subscriber[];
  memory: {
    firstMinute: Map<string, PartMemory>;
    halfway: Map<string, PartMemory>;
    end: Map<string, PartMemory>;
    /** CPU-seconds each part used during the load, and its busiest 10 s in cores. */
    cpu: Map<string, { seconds: number; busiest: number }>;
    seconds: number;
  };
  faults: FaultEvent[];
  machine: MachineLoad;
  /**
   * The stack's Node process during the load: its event-loop delay and the cores it used; and where Realtime's
   * changes spent their time inside it, alone and under load.
   */
  stack: { loopDelay: LoopDelay; cores: number; realtime: { alone: RealtimeBreakdown; load: RealtimeBreakdown } };
}

export function loadRows(outcome: LoadOutcome): BenchRow[] {
  const { label, metrics, edits, uploads, jobs, subscribers, memory } = outcome;
  const rows: BenchRow[] = KINDS.map((kind) => ({
    metric: `${label}: p95 ${kind} (${metrics.count(kind, 'load')} under load)`,
    unit: 'ms',
    value: metrics.p95(kind, 'load'),
    baseline: metrics.p95(kind, 'one user'),
    baselineLabel: `one user, ${metrics.count(kind, 'one user')} calls`,
    goal: '≤ 3× one user',
    higherIsBetter: false,
  }));
  rows.push(
    count(`${label}: errors a person would see`, metrics.seen.length, '0'),
    count(`${label}: saves accepted / refused as conflicts`, edits.accepted, `${edits.conflicts} conflicts`),
    count(
      `${label}: saves lost or overwritten`,
      edits.overwritten.length + edits.lost.length,
      "0 (each conflict answered 'Otra persona ha cambiado este archivo')",
    ),
    count(
      `${label}: uploads (${(uploads.bytes / 1e9).toFixed(2)} GB) with sha256 intact`,
      uploads.intact,
      `all ${uploads.uploads}`,
    ),
    count(
      `${label}: server jobs done / failed / unfinished`,
      jobs.done,
      `${jobs.failed.length} failed, ${jobs.unfinished} unfinished (0, 0)`,
    ),
  );
  if (outcome.faults.length) {
    rows.push(
      count(`${label}: errors seen within 30 s of a fault`, metrics.seenDuringFaults.length, 'reported, not a goal'),
      count(
        `${label}: live channels that showed 'Reconectando…' / rejoined`,
        subscribers.filter((s) => s.shown.length > 0).length,
        `${subscribers.filter((s) => s.shown.length > 0 && s.shown.at(-1)!.to !== null && !s.reconnecting).length} rejoined (all)`,
      ),
    );
  }
  const { machine } = outcome;
  rows.push(
    count(
      `${label}: machine busy during the load (all ${machine.cores} cores, shared with others)`,
      Math.round(machine.busy * 100),
      `%; the simulated people used ${machine.benchCpu.toFixed(2)} cores of it`,
    ),
    count(
      `${label}: event-loop delay of the simulated people's process, p95`,
      Number(machine.eventLoopDelayP95.toFixed(1)),
      'ms, part of every time above',
    ),
    count(
      `${label}: event-loop delay of the stack's Node process (gateway, Auth, Storage, Realtime), p95`,
      Number(outcome.stack.loopDelay.p95.toFixed(1)),
      `ms (p50 ${outcome.stack.loopDelay.p50.toFixed(1)}, max ${Math.round(outcome.stack.loopDelay.max)}); it used ${outcome.stack.cores.toFixed(2)} cores`,
    ),
    realtimeInsideTheStack(label, outcome.stack.realtime),
  );
  for (const [part, { seconds, busiest }] of memory.cpu) {
    rows.push(
      count(
        `${label}: CPU of ${part} during the load`,
        Number((seconds / memory.seconds).toFixed(2)),
        `cores on average; ${busiest.toFixed(2)} in its busiest 10 s`,
      ),
    );
  }
  for (const [part, end] of memory.end) {
    const first = memory.firstMinute.get(part);
    const halfway = memory.halfway.get(part);
    const processes =
      first && first.processes !== end.processes ? `${first.processes} → ${end.processes}` : `${end.processes}`;
    // Shared memory is one segment whichever processes map it: their count says nothing of it.
    const notes = [
      ...(part === POSTGRES_SHARED_MEMORY ? [] : [`${processes} processes`]),
      ...(halfway ? [`${(halfway.bytes / 1e6).toFixed(0)} MB halfway`] : []),
    ];
    rows.push({
      metric: `${label}: memory (PSS) of ${part} at the end (${notes.join('; ')})`,
      unit: 'MB',
      value: end.bytes / 1e6,
      baseline: first ? first.bytes / 1e6 : null,
      baselineLabel: 'end of the first minute',
      goal: part === POSTGRES_SHARED_MEMORY ? '≤ 256 MB (shared_buffers)' : '≤ 1.1× the first minute',
      higherIsBetter: false,
    });
  }
  return rows;
}

/** What went wrong, in words, for the console (the table only counts). */
export function printProblems(outcome: LoadOutcome) {
  const lines = [
    ...outcome.metrics.seen.map((e) => `seen at ${e.at.toFixed(0)} s, ${e.kind}: ${e.message}`),
    ...outcome.metrics.seenDuringFaults.map(
      (e) => `seen during a fault at ${e.at.toFixed(0)} s, ${e.kind}: ${e.message}`,
    ),
    ...outcome.edits.overwritten,
    ...outcome.edits.lost,
    ...outcome.uploads.broken,
    ...outcome.jobs.failed,
    ...outcome.faults.map((f) => `fault at ${f.at.toFixed(0)} s: ${f.what} (${f.took.toFixed(1)} s)`),
  ];
  const shown = lines.slice(0, 60);
  if (shown.length) console.log(`  load: ${lines.length} notes\n${shown.map((l) => `    ${l}`).join('\n')}`);
}

/**
 * From commit to the frames leaving the stack, per change: the load's p95 beside one user's, and each stage's
 * (realtime/timeline.ts in the stack), so a realtime figure that grows under load says where.
 */
function realtimeInsideTheStack(label: string, { alone, load }: LoadOutcome['stack']['realtime']): BenchRow {
  const both = (stage: keyof RealtimeBreakdown['stages']) =>
    `${alone.stages[stage].p50}/${alone.stages[stage].p95} → ${load.stages[stage].p50}/${load.stages[stage].p95}`;
  const stages = REALTIME_STAGES.map((stage) => `${stage} ${both(stage)}`).join(', ');
  return count(
    `${label}: realtime inside the stack (commit to frames sent), p95 per change`,
    load.stages.total.p95,
    `ms (one user ${alone.stages.total.p95}; ${alone.changes} → ${load.changes} changes); p50/p95 of each stage, one user → load: ${stages}`,
  );
}
