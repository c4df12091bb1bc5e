import { isQuick, percentile, report, type BenchRow } from './lib/report.ts';
import { progress } from './lib/harness.ts';
import { SOAK_DEFAULTS, roundsExpected, soak, soakProblems, startSoakStack, type SoakOptions } from './lib/soak.ts';

/**
 * `npm run bench -- soak [--minutes N] [--rounds N]`: ordinary use of a stack of its own on loopback for ten
 * minutes (one with --quick), a round every 3 s, at most 1000 rounds (bench/lib/soak.ts says what a round does
 * and what the stack is held to). Fails when a call failed, a process restarted or reloaded, realtime went quiet
 * or a part of the stack kept growing; the rows say how long rounds took and each part's memory.
 */
function soakOptions(argv = process.argv): SoakOptions {
  const value = (flag: string) => (argv.includes(flag) ? Number(argv[argv.indexOf(flag) + 1]) : undefined);
  const minutes = value('--minutes') ?? (isQuick() ? 1 : SOAK_DEFAULTS.minutes);
  const maxRounds = value('--rounds') ?? SOAK_DEFAULTS.maxRounds;
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 120)
    throw new Error(`--minutes needs a number of minutes above 0 and at most 120, not "${minutes}"`);
  if (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 10_000)
    throw new Error(`--rounds needs a whole number from 1 to 10000, not "${maxRounds}"`);
  return { ...SOAK_DEFAULTS, minutes, maxRounds };
}

export async function run(): Promise<BenchRow[]> {
  const options = soakOptions();
  progress('soak', `starting a stack for ${options.minutes} min of ordinary use (at most ${options.maxRounds} rounds)`);
  const soakStack = await startSoakStack();
  let outcome;
  try {
    outcome = await soak(soakStack, options);
  } finally {
    await soakStack.stop();
  }
  const count = (metric: string, value: number, goal: string): BenchRow => ({
    metric: `soak ${options.minutes} min: ${metric}`,
    unit: '',
    value,
    baseline: null,
    baselineLabel: '',
    goal,
    higherIsBetter: false,
  });
  const rows: BenchRow[] = [
    { ...count('rounds', outcome.rounds, `≥ ${roundsExpected(options)}`), higherIsBetter: true },
    {
      metric: `soak ${options.minutes} min: round time p95`,
      unit: 'ms',
      value: percentile(outcome.roundMs, 95),
      baseline: percentile(outcome.roundMs, 50),
      baselineLabel: 'p50',
      goal: `< ${options.roundEveryMs} ms (the pace)`,
      higherIsBetter: false,
    },
    count('failed calls', outcome.failures.length, '0'),
    count('PostgREST starts', outcome.postgrestStarts.length, '1'),
    count('reloads and reconnects logged', outcome.reloadsLogged.length, '0'),
    count('processes stopped or restarted', outcome.stopsLogged.length, '0'),
    count('schema reload requests', outcome.schemaReloads.length, '0'),
    { ...count('realtime changes received', outcome.changes, '> 0'), higherIsBetter: true },
    {
      ...count("analysts' views refreshed (1 yes, 0 no)", Number(outcome.analyticsRefreshed), '1'),
      higherIsBetter: true,
    },
    count('server jobs due left unfinished', outcome.jobsUnfinished, '0'),
    ...outcome.memory.map((part) => ({
      metric: `soak ${options.minutes} min: memory (PSS) of ${part.part} at the end (${part.end.processes} processes)`,
      unit: 'MB',
      value: part.end.bytes / 1e6,
      baseline: part.warm.bytes / 1e6,
      baselineLabel: 'after the warm-up',
      goal: part.allowedBytes === null ? 'not bounded' : `≤ ${(part.allowedBytes / 1e6).toFixed(0)} MB`,
      higherIsBetter: false,
    })),
  ];
  await report('soak', rows);
  const problems = soakProblems(outcome);
  if (problems.length > 0) throw new Error(`the soak found ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  return rows;
}
