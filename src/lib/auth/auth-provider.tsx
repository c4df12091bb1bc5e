import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Session } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { supabase } from '../supabase.ts';
import { getStaffRole, type StaffRole } from './staff-role.ts';
import type { LoginRefusal } from './messages.ts';

export type AuthState =
  | { status: 'loading' }
  | { status: 'signedOut'; refusal: LoginRefusal | null }
  | { status: 'signedIn'; session: Session; role: StaffRole }
  /** Password accepted, but the account has an authenticator: the 6-digit code comes before anything else. */
  | { status: 'needsCode'; session: Session; factorId: string };

export interface AuthContextValue {
  state: AuthState;
  signOut: () => Promise<void>;
  clearRefusal: () => void;
  /** Reads the role again, e.g. after Realtime reports that an admin changed this account. */
  recheckRole: () => Promise<void>;
}

/** Exported for component tests, which render screens as a given role without signing in. */
export const AuthContext = createContext<AuthContextValue | null>(null);
const ALLOWED_ROLES: readonly StaffRole[] = ['ADMIN', 'UPLOADER'];

/** Ends the session; when the server cannot be reached the local session is dropped all the same. */
async function endSession(): Promise<void> {
  const { error } = await supabase.auth.signOut();
  if (error) await supabase.auth.signOut({ scope: 'local' });
}

/**
 * Who is signed in and with what role, from Supabase Auth and the staff table: after every
 * sign-in the role is checked in the database and an account that may not use the site is signed out again,
 * before anything else is loaded.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  const queryClient = useQueryClient();
  const sessionRef = useRef<Session | null>(null);
  const roleRef = useRef<StaffRole | null>(null);
  const needsCodeRef = useRef(false);

  /** Decides whether `session` may use the site. `initial`: the sign-in itself, where any doubt refuses. */
  const admit = useCallback(
    async (session: Session, initial: boolean) => {
      // Second step first: a verified factor and an aal1 session mean the code is still owed.
      const factorId = session.user.factors?.find((f) => f.status === 'verified' && f.factor_type === 'totp')?.id;
      const aal = factorId ? (await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data : null;
      if (sessionRef.current?.user.id !== session.user.id) return;
      if (factorId && aal?.currentLevel !== 'aal2') {
        needsCodeRef.current = true;
        setState({ status: 'needsCode', session, factorId });
        return;
      }
      needsCodeRef.current = false;
      let role: StaffRole | null;
      let refusal: LoginRefusal;
      try {
        role = await getStaffRole();
        refusal = role ? 'NOT_ADMIN' : 'LOGIN_NOT_PERMITTED';
      } catch (error) {
        if (!initial) return; // A failed re-check keeps the role already known; the next event retries.
        console.error('Could not read the staff role', error);
        role = null;
        refusal = 'ROLE_CHECK_FAILED';
      }
      if (sessionRef.current?.user.id !== session.user.id) return; // Signed out or switched meanwhile.
      if (role && ALLOWED_ROLES.includes(role)) {
        // RLS decides what each role reads: data cached under the old role is refetched under the new one.
        if (roleRef.current && roleRef.current !== role) void queryClient.invalidateQueries();
        roleRef.current = role;
        const current = sessionRef.current;
        setState((previous) =>
          previous.status === 'signedIn' && previous.role === role && previous.session === current
            ? previous
            : { status: 'signedIn', session: current, role },
        );
        return;
      }
      sessionRef.current = null;
      roleRef.current = null;
      await supabase.auth.signOut({ scope: 'local' });
      queryClient.clear();
      setState({ status: 'signedOut', refusal });
    },
    [queryClient],
  );

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((_event, session) => {
      const previous = sessionRef.current;
      sessionRef.current = session;
      if (!session) {
        roleRef.current = null;
        needsCodeRef.current = false;
        queryClient.clear();
        setState((current) => (current.status === 'signedOut' ? current : { status: 'signedOut', refusal: null }));
        return;
      }
      if (previous?.user.id === session.user.id && needsCodeRef.current) {
        // The code was given (MFA_CHALLENGE_VERIFIED): now the role check of a sign-in.
        setTimeout(() => void admit(session, true), 0);
        return;
      }
      if (previous?.user.id === session.user.id) {
        // Token refreshed or user updated: same person, same role.
        setState((current) => (current.status === 'signedIn' ? { ...current, session } : current));
        return;
      }
      roleRef.current = null;
      setState({ status: 'loading' });
      // Supabase calls made inside this callback would wait on the auth lock it holds: run them after it.
      setTimeout(() => void admit(session, true), 0);
    });
    return () => data.subscription.unsubscribe();
  }, [queryClient, admit]);

  const clearRefusal = useCallback(
    () => setState((current) => (current.status === 'signedOut' ? { ...current, refusal: null } : current)),
    [],
  );
  const recheckRole = useCallback(async () => {
    if (sessionRef.current) await admit(sessionRef.current, false);
  }, [admit]);

  const value = useMemo<AuthContextValue>(
    () => ({ state, signOut: endSession, clearRefusal, recheckRole }),
    [state, clearRefusal, recheckRole],
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
