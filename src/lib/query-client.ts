import { QueryClient } from '@tanstack/react-query';
import { readRetry } from './errors.ts';

/**
 * Realtime keeps caches current, so data does not go stale on a timer. A failed read is tried again only when
 * the failure may pass (lost connection, server error, a database restart), never when the server said no.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        retry: readRetry.retry,
        retryDelay: readRetry.retryDelay,
      },
      mutations: { retry: false },
    },
  });
}
