import type { QueryClient } from '@tanstack/react-query';

/** The longest a join's catch-up waits for the page's reads to land. */
const CATCH_UP_WITHIN_MS = 1500;

/**
 * Runs `work` once no read is on its way, or after CATCH_UP_WITHIN_MS; returns what cancels it. At sign-in
 * the channel's join lands while the first screen's reads are out: the join's catch-up (a refetch of every
 * watched cache) sent then competed with them and read the page in flight a second time before the grid
 * could show it. Reads that were out when the channel joined are still read again.
 */
export function afterReads(queryClient: QueryClient, work: () => void): () => void {
  let done = false;
  const deadline = setTimeout(() => run(), CATCH_UP_WITHIN_MS);
  // Checked on the next turn: the cache tells its listeners about a read before it counts as landed.
  const stopWatching = queryClient.getQueryCache().subscribe(() => {
    setTimeout(() => {
      if (queryClient.isFetching() === 0) run();
    }, 0);
  });
  function run() {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    stopWatching();
    work();
  }
  if (queryClient.isFetching() === 0) run();
  return () => {
    done = true;
    clearTimeout(deadline);
    stopWatching();
  };
}
