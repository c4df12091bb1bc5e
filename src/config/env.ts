/**
 * The only configuration the app reads from its build environment; validated once at start. Checked by hand,
 * not with zod: this runs before the first paint, and zod would be the only reason to ship it in the files
 * screen's initial JS (its forms load zod with their own lazy screens).
 */
// Zod 4 probes for eval (`Function('')`) on its first parse to compile faster parsers; the app's CSP forbids
// eval, so the probe would be reported as a violation. Zod keeps its global config on globalThis (so that every
// copy shares it) and keeps what it finds there: setting `jitless` here, in the initial JS, covers every lazy
// screen that loads zod later, without shipping zod before the first paint.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export interface Env {
  VITE_SUPABASE_URL: string;
  VITE_SUPABASE_ANON_KEY: string;
}

const isUrl = (value: unknown): value is string => typeof value === 'string' && URL.canParse(value.trim());

export function parseEnv(source: Record<string, unknown>): Env {
  const { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key } = source;
  const problems = [
    !isUrl(url) && 'VITE_SUPABASE_URL: VITE_SUPABASE_URL must be the Supabase API URL',
    (typeof key !== 'string' || key.length < 20) &&
      'VITE_SUPABASE_ANON_KEY: VITE_SUPABASE_ANON_KEY must be the project anon (publishable) key',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`Invalid environment: ${problems.join('; ')}`);
  return { VITE_SUPABASE_URL: (url as string).trim(), VITE_SUPABASE_ANON_KEY: key as string };
}

export const env = parseEnv(import.meta.env);
