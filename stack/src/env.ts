import { z } from 'zod';

/**
 * The environment variables the stack's commands read, checked once at start: a bad value stops the start
 * with a message naming the variable, instead of a stack listening somewhere unexpected.
 */

const port = z.coerce
  .number({ error: 'must be a TCP port' })
  .int('must be a TCP port')
  .min(1, 'must be a TCP port')
  .max(65535, 'must be a TCP port');

const stackEnvSchema = z.object({
  STACK_HOST: z.string().min(1).optional(),
  STACK_API_PORT: port.optional(),
  STACK_DB_PORT: port.optional(),
  STACK_DATA_DIR: z.string().min(1).optional(),
  /** GOTRUE_RATE_LIMIT_HEADER for the stack's Auth; "none" turns its per-client limits off. */
  STACK_AUTH_RATE_LIMIT_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name or "none"')
    .optional(),
});

export type StackEnv = z.infer<typeof stackEnvSchema>;

/** Reads `names` of a schema from `env` (empty values count as unset), or throws naming each bad variable. */
export function parseEnv<T extends z.ZodRawShape>(
  schema: z.ZodObject<T>,
  env: NodeJS.ProcessEnv,
): z.infer<z.ZodObject<T>> {
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .filter((name) => env[name] !== undefined && env[name] !== '')
      .map((name) => [name, env[name]]),
  );
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name} ${issue.message}, got "${present[name] ?? ''}"`;
  });
  throw new Error(`Invalid environment: ${problems.join('; ')}`);
}

export const readStackEnv = (env: NodeJS.ProcessEnv = process.env): StackEnv => parseEnv(stackEnvSchema, env);

/** A port variable of another tool (the app's dev server), checked the same way. */
export const readPortEnv = (name: string, env: NodeJS.ProcessEnv = process.env): number | undefined =>
  (parseEnv(z.object({ [name]: port.optional() }), env) as Record<string, number | undefined>)[name];
