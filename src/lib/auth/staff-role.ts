import { supabase } from '../supabase.ts';
import type { Database } from '../../types/database.ts';

export type StaffRole = Database['public']['Enums']['staff_role'];

/** The caller's role as the database knows it (null when the account has no staff role). */
export async function getStaffRole(): Promise<StaffRole | null> {
  const { data, error } = await supabase.rpc('current_staff_role');
  if (error) throw error;
  return data ?? null;
}
