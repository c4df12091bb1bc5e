import type { QueryClient } from '@tanstack/react-query';

/** The longest a join's catch-up waits for the page's reads to land and the page to be idle. */
const CATCH_UP_WITHIN_MS = 1500;

/**
 * Runs `work` once no read is on its way and the page is idle, or after CATCH_UP_WITHIN_MS; returns what
 * cancels it. At sign-in the channel's join lands while the first screen's reads are out and its grid is
 * being drawn: the join's catch-up (a refetch of every watched cache) sent then competed with them for the
 * machine and came before the grid. Reads that were out when the channel joined are still read again.
 */
export function afterReadsAndIdle(queryClient: QueryClient, work: () => void): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  const deadline = setTimeout(() => run(), CATCH_UP_WITHIN_MS);
  const stopWatching = queryClient.getQueryCache().subscribe(() => {
    if (queryClient.isFetching() === 0) setTimeout(whenIdle, 0);
  });
  function run() {
    if (cancelled) return;
    cancelled = true;
    clearTimeout(deadline);
    stopWatching();
    work();
  }
  function whenIdle() {
    if (cancelled || idleHandle !== undefined || queryClient.isFetching() > 0) return;
    if (typeof requestIdleCallback !== 'function') return run();
    idleHandle = requestIdleCallback(run, { timeout: CATCH_UP_WITHIN_MS });
  }
  whenIdle();
  return () => {
    cancelled = true;
    clearTimeout(deadline);
    stopWatching();
    if (idleHandle !== undefined) cancelIdleCallback(idleHandle);
  };
}
