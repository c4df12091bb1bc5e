import * as z from 'zod/mini';

// Zod 4 probes for eval (`Function('')`) on its first parse to compile faster parsers; the app's CSP forbids
// eval, so the probe would be reported as a violation on every page. Set here, in the module whose parse of the
// build environment is the app's first, because the bundler may evaluate this chunk before main.tsx's body.
z.config({ jitless: true });

/**
 * The only configuration the app reads from its build environment; validated once at start. zod/mini (the
 * tree-shakable build) because this runs before the first paint: the files screen's initial JS budget.
 */
const envSchema = z.object({
  VITE_SUPABASE_URL: z.url({ message: 'VITE_SUPABASE_URL must be the Supabase API URL' }),
  VITE_SUPABASE_ANON_KEY: z
    .string()
    .check(z.minLength(20, 'VITE_SUPABASE_ANON_KEY must be the project anon (publishable) key')),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new Error(
      `Invalid environment: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return result.data;
}

export const env = parseEnv(import.meta.env);
