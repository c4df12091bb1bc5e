/**
 * What the rest of the repository may use of the stack (`import … from '@mediateca/stack'`): starting it, the
 * runner behind `npm start`, and the pieces the app's deploy checks and benchmarks reuse. Everything else
 * under src/ is the stack's own business and may change without the app noticing.
 */

// Starting and running a stack.
export { startStack, PROJECT_ROOT, type StackOptions, type RunningStack } from './stack.ts';
export { runMain, runStack } from './run.ts';
export { readPortEnv } from './env.ts';
export { freePort } from './net.ts';
export { SLICE_TIMELINE_CHANNEL, type SliceTimeline } from './realtime/timeline.ts';
export { ANALYST_LOCAL_PASSWORD, ANALYST_LOCAL_USER, DEFAULT_API_PORT, DEFAULT_DB_PORT } from './config.ts';
export type { CaughtMessage } from './mail-catcher.ts';

// A database as a new hosted project has it, and the Supabase CLI that deploys to it (the deploy rehearsal).
export { startPostgres, type PostgresHandle } from './postgres.ts';
export { bootstrapDatabase } from './bootstrap.ts';
export { HOSTED_DEFAULT_EXTENSIONS, HOSTED_POSTGRES_MEMBERSHIPS } from './hosted-defaults.ts';
export { pushMigrations, runSupabaseCli } from './migrate.ts';

// Edge functions as `supabase functions deploy` takes them, and the limits hosted holds them to.
export { loadProjectConfig } from './project-config.ts';
export { denoBinary } from './functions/index.ts';
export { cacheFunctionDependencies } from './functions/deno-cache.ts';
export { createBundleSizer } from './functions/bundle-size.ts';
export { HOSTED_FREE_PLAN_LIMITS } from './functions/limits.ts';
export type { FunctionRequestUsage } from './functions/dispatch.ts';
