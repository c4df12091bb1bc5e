import { QueryClient } from '@tanstack/react-query';

/** Realtime keeps caches current, so data does not go stale on a timer. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: false },
    },
  });
}
