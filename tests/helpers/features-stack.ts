import path from 'node:path';
import { startStack, PROJECT_ROOT, type RunningStack } from '../../stack/src/stack.ts';

/** A stack of tests/fixtures/auth-features-project: sign-ups, WebAuthn MFA and the OAuth server turned on. */
export function startFeaturesStack(): Promise<RunningStack> {
  return startStack({
    ephemeral: true,
    supabaseDir: path.join(PROJECT_ROOT, 'tests/fixtures/auth-features-project/supabase'),
    jobWorker: false,
    log: process.env.STACK_LOG === '1' ? (message) => console.log(`[stack] ${message}`) : () => {},
  });
}
