import { createClient, type SupabaseClient, type User } from '@supabase/supabase-js';
import { HttpError } from './http.ts';
import { deadlineFetch } from './deadline.ts';

const url = () => Deno.env.get('SUPABASE_URL')!;

/** A client with the service role: only used after the caller has been checked. */
export function serviceClient(): SupabaseClient {
  return createClient(url(), Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, {
    // Every call to Auth, PostgREST and Storage has a deadline (deadline.ts): none can hold a request forever.
    global: { fetch: deadlineFetch },
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

/** A client acting as the caller, so RLS applies to whatever it reads. */
export function callerClient(request: Request): SupabaseClient {
  return createClient(url(), Deno.env.get('SUPABASE_ANON_KEY')!, {
    global: { fetch: deadlineFetch, headers: { Authorization: request.headers.get('Authorization') ?? '' } },
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

export type StaffRole = 'ADMIN' | 'UPLOADER' | 'FRONT' | 'OPERATIONS';

/** The signed-in caller and their effective staff role, read from the database (never from the token's claims). */
export async function requireStaff(request: Request, allowed: StaffRole[]): Promise<{ user: User; role: StaffRole }> {
  const token = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ?? '';
  const { data, error } = await serviceClient().auth.getUser(token);
  if (error || !data.user) throw new HttpError(401, 'UNAUTHENTICATED', 'Tienes que iniciar sesión.');
  // Asked as the caller, so the database's own rule decides: with require_admin_mfa on, an admin whose token
  // is only aal1 is an UPLOADER here too (migration …_staff_and_access.sql).
  const staff = await callerClient(request).rpc('current_staff_role');
  if (staff.error) throw staff.error;
  const role = (staff.data ?? undefined) as StaffRole | undefined;
  if (!role || !allowed.includes(role)) {
    throw new HttpError(403, 'NOT_ADMIN', 'No tienes permiso para hacer esto.');
  }
  return { user: data.user, role };
}
