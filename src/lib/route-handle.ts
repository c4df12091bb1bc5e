import type { QueryClient } from '@tanstack/react-query';

/**
 * What a route's `handle` may carry. `prefetch` starts the data a screen shows first as soon as the person is
 * known to be staff, beside the data the private area waits for, instead of after it; `search` is the URL's
 * query string the screen is opened with.
 */
export interface RouteHandle {
  prefetch?: (queryClient: QueryClient, search: string) => void;
}

export function routeHandle(match: { handle: unknown }): RouteHandle | undefined {
  return typeof match.handle === 'object' && match.handle !== null ? (match.handle as RouteHandle) : undefined;
}
