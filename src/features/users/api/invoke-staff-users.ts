import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/supabase.ts';

/** An error of the staff-users function, carrying the Spanish sentence it answered with. */
export class StaffUsersError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * Calls the staff-users edge function (ADMIN only; it checks the caller's role in the database). Its error
 * responses are `{ code, message }` with a Spanish message, which is what the forms show in red.
 */
export async function invokeStaffUsers<T>(body: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
  const { data, error } = await supabase.functions.invoke<T>('staff-users', { body, signal });
  if (error) {
    if (error instanceof FunctionsHttpError) {
      const answer = (await (error.context as Response).json().catch(() => null)) as {
        code?: string;
        message?: string;
      } | null;
      if (answer?.message) throw new StaffUsersError(answer.message, answer.code);
    }
    throw error;
  }
  return data as T;
}

/** The function's own Spanish sentence when there is one, else the fallback (for notify/spanishError). */
export const messageOf = (error: unknown, fallback: string): string =>
  error instanceof StaffUsersError ? error.message : fallback;
