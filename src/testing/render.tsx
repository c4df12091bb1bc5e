import { createContext, useContext, useState, type ReactElement, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Session } from '@supabase/supabase-js';
import { AuthContext } from '../lib/auth/auth-provider.tsx';
import type { StaffRole } from '../lib/auth/staff-role.ts';

const Rendered = createContext<ReactNode>(null);
const RenderedSlot = () => useContext(Rendered);

/** A data router (as the app's), so components may use its hooks (useBlocker); what is rendered goes in by context. */
function TestRouter({ route, children }: { route: string; children: ReactNode }) {
  const [router] = useState(() =>
    createMemoryRouter([{ path: '*', element: <RenderedSlot /> }], { initialEntries: [route] }),
  );
  return (
    <Rendered.Provider value={children}>
      <RouterProvider router={router} />
    </Rendered.Provider>
  );
}

/** A new QueryClient per test, without retries, so one test's cache or failure never leaks into another. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
}

/**
 * Renders a component as a signed-in member of staff with `role`, inside a router and a fresh QueryClient.
 * Data a component reads can be put in the cache beforehand (`queryClient.setQueryData`).
 */
export function renderAs(
  ui: ReactElement,
  options: { role?: StaffRole; route?: string; queryClient?: QueryClient } = {},
) {
  const queryClient = options.queryClient ?? createTestQueryClient();
  const session = { user: { id: 'a0000000-0000-4000-8000-000000000001', email: 'admin@mediateca.local' } } as Session;
  const auth = {
    state: { status: 'signedIn' as const, session, role: options.role ?? 'ADMIN' },
    signOut: async () => {},
    clearRefusal: () => {},
    recheckRole: async () => {},
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={auth}>
        <TestRouter route={options.route ?? '/'}>{children}</TestRouter>
      </AuthContext.Provider>
    </QueryClientProvider>
  );
  return { ...render(ui, { wrapper }), queryClient };
}
