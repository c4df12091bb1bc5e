import path from 'node:path';
import { PROJECT_ROOT, type RunningStack } from '../../src/stack.ts';
import { startOwnStack } from '../../../tests/helpers/own-stack.ts';

/** A stack of stack/tests/fixtures/auth-features-project: sign-ups, WebAuthn MFA and the OAuth server turned on. */
export function startFeaturesStack(): Promise<RunningStack> {
  return startOwnStack({
    supabaseDir: path.join(PROJECT_ROOT, 'stack/tests/fixtures/auth-features-project/supabase'),
    jobWorker: false,
  });
}
