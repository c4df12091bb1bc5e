import { createClient } from '@supabase/supabase-js';
import { env } from '../config/env.ts';
import type { Database } from '../types/database.ts';

/** The app's one Supabase client; everything server-side goes through it. */
export const supabase = createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
});
