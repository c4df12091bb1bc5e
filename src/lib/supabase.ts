import { createClient } from '@supabase/supabase-js';
import { env } from '../config/env.ts';
import type { Database } from '../types/database.ts';
import { fetchWithDeadline } from './request-deadline.ts';

/**
 * The app's one Supabase client. Sessions persist in the browser under supabase-js's default key, so the
 * sessions the tests' helpers save are found. The URL is not scanned for a session on load: the one page
 * that receives tokens in its address (password reset, invitations) reads them itself. Every request has a
 * deadline to its answer (request-deadline.ts), so a screen whose data does not come says so instead of waiting.
 */
export const supabase = createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
  auth: { detectSessionInUrl: false },
  global: { fetch: fetchWithDeadline() },
});
