import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { createTestQueryClient } from '../../../testing/render.tsx';
import { fileKeys } from '../api/keys.ts';
import { useFileFilters } from './use-file-filters.ts';

/** The hook reads the address bar itself (window.location), so the test starts from a real one. */
function renderFilters(route: string) {
  window.history.replaceState(null, '', route);
  const queryClient = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>{children}</BrowserRouter>
    </QueryClientProvider>
  );
  const { result } = renderHook(() => ({ filters: useFileFilters(), location: useLocation() }), { wrapper });
  return { result, queryClient };
}

describe('useFileFilters', () => {
  it('asks for the first page and the count of a chosen filter before the screen renders it', () => {
    const { result, queryClient } = renderFilters('/private/files?q=piscina');
    // Not inside act(): nothing has re-rendered yet when the requests must already be on their way.
    result.current.filters.setFilter('type', 'image');
    const chosen = { query: 'piscina', type: 'image' } as const;
    expect(queryClient.isFetching({ queryKey: fileKeys.count(chosen), exact: true })).toBe(1);
    expect(queryClient.isFetching({ queryKey: fileKeys.list(chosen, 'uploadedOn_desc'), exact: true })).toBe(1);
  });

  it("keeps what is cached, and 'Quitar filtros' keeps the sort", async () => {
    const { result, queryClient } = renderFilters('/private/files?q=piscina&sort=size_desc');
    queryClient.setQueryData(fileKeys.count({}), 12);
    await act(async () => result.current.filters.clear());
    expect(result.current.location.search).toBe('?sort=size_desc');
    expect(queryClient.isFetching({ queryKey: fileKeys.count({}), exact: true })).toBe(0);
    expect(queryClient.isFetching({ queryKey: fileKeys.list({}, 'size_desc'), exact: true })).toBe(1);
  });
});
