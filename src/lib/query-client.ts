import { QueryClient } from '@tanstack/react-query';
import { isWorthRetrying } from './errors.ts';

/**
 * Realtime keeps caches current, so data does not go stale on a timer. A failed read is tried once more only
 * when the failure may pass (lost connection, server error), never when the server said no.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        retry: (failures, error) => failures < 1 && isWorthRetrying(error),
      },
      mutations: { retry: false },
    },
  });
}
