import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Session } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../lib/supabase.ts';
import { getStaffRole, type StaffRole } from './api/staff-role.ts';
import type { LoginRefusal } from './messages.ts';

type AuthState =
  | { status: 'loading' }
  | { status: 'signedOut'; refusal: LoginRefusal | null }
  | { status: 'signedIn'; session: Session; role: StaffRole };

interface AuthContextValue {
  state: AuthState;
  signOut: () => Promise<void>;
  clearRefusal: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);
const ALLOWED_ROLES: StaffRole[] = ['ADMIN', 'UPLOADER'];

/**
 * Who is signed in and with what role, from Supabase Auth and the staff table (spec section 4): after every
 * sign-in the role is checked in the database and an account that may not use the site is signed out again.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  const queryClient = useQueryClient();

  useEffect(() => {
    let checkedFor: string | null = null;
    const admit = async (session: Session) => {
      let role: StaffRole | null;
      try {
        role = await getStaffRole();
      } catch {
        role = null;
      }
      if (role && ALLOWED_ROLES.includes(role)) {
        setState({ status: 'signedIn', session, role });
        return;
      }
      await supabase.auth.signOut({ scope: 'local' });
      queryClient.clear();
      setState({ status: 'signedOut', refusal: role ? 'NOT_ADMIN' : 'LOGIN_NOT_PERMITTED' });
    };
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      if (!session) {
        checkedFor = null;
        queryClient.clear();
        setState((current) => (current.status === 'signedOut' ? current : { status: 'signedOut', refusal: null }));
        return;
      }
      if (event === 'TOKEN_REFRESHED' || event === 'USER_UPDATED') {
        setState((current) => (current.status === 'signedIn' ? { ...current, session } : current));
        return;
      }
      if (checkedFor === session.user.id) return;
      checkedFor = session.user.id;
      // Supabase calls made inside this callback would wait on the auth lock it holds: run them after it.
      setTimeout(() => void admit(session), 0);
    });
    return () => data.subscription.unsubscribe();
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      state,
      signOut: async () => {
        await supabase.auth.signOut();
      },
      clearRefusal: () =>
        setState((current) => (current.status === 'signedOut' ? { ...current, refusal: null } : current)),
    }),
    [state],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

export function useIsAdmin(): boolean {
  const { state } = useAuth();
  return state.status === 'signedIn' && state.role === 'ADMIN';
}
