import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  memoryGrowth,
  roundsExpected,
  soak,
  startSoakStack,
  type SoakOptions,
  type SoakStack,
} from '../../bench/lib/soak.ts';

/**
 * One minute of the soak (`npm run bench -- soak` runs ten) on a stack of its own, counting restarts: PostgREST
 * starts once and never again, no process of the stack stops, nothing asks PostgREST to reload its schema, every
 * call succeeds, realtime changes arrive, and no part of the stack grows past a tenth (and 32 MB) after the
 * warm-up. A round a second instead of every three, so each kind of call (uploads every fifth round, a new sign-in and sign-out
 * every tenth) comes round as often as in the first three minutes of the long run. It then waits for the server
 * jobs the rounds queued, the analysts' refresh a minute after the first tag change among them, so a reload it
 * would cause is still seen. STACK_STABILITY_MINUTES lengthens it for a local try.
 */

const OPTIONS: SoakOptions = {
  minutes: Number(process.env.STACK_STABILITY_MINUTES ?? 1),
  roundEveryMs: 1000,
  maxRounds: 1000,
};

let soakStack: SoakStack;

beforeAll(async () => {
  soakStack = await startSoakStack();
}, 300_000);

afterAll(async () => {
  await soakStack?.stop();
});

describe('the stack under ordinary use', () => {
  it(
    `runs ${OPTIONS.minutes} minute(s) without restarting, reloading or growing any process`,
    async () => {
      const report = await soak(soakStack, OPTIONS);
      expect(report.failures).toEqual([]);
      expect(report.rounds).toBeGreaterThanOrEqual(roundsExpected(OPTIONS));
      expect(report.changes).toBeGreaterThan(0);
      // Restarts, reconnects and reloads: none.
      expect(report.postgrestStarts).toHaveLength(1);
      expect(report.reloadsLogged).toEqual([]);
      expect(report.stopsLogged).toEqual([]);
      expect(report.schemaReloads).toEqual([]);
      // The analysts' refresh, a minute after the first tag change, ran while the stack was watched.
      expect(report.analyticsRefreshed).toBe(true);
      expect(report.jobsUnfinished).toBe(0);
      expect(memoryGrowth(report)).toEqual([]);
    },
    (OPTIONS.minutes + 2) * 60_000,
  );
});
