import { inject } from 'vitest';
import type { ProjectStackRequest, StackInfo } from '../../../tests/helpers/global-stack.ts';

/**
 * The stack of stack/tests/fixtures/auth-features-project: sign-ups, WebAuthn MFA and the OAuth server turned
 * on. One for the whole run, started by the global setup for the first file asking (tests/helpers/global-stack.ts)
 * and stopped with the shared stack: the files using it create their own users and clients, so they need no
 * stack each.
 */
export async function featuresStack(): Promise<StackInfo> {
  const request: ProjectStackRequest = {
    supabaseDir: 'stack/tests/fixtures/auth-features-project/supabase',
    jobWorker: false,
  };
  const response = await fetch(`${inject('stackControlUrl')}/project-stack`, {
    method: 'POST',
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(`the features stack did not start: ${await response.text()}`);
  return (await response.json()) as StackInfo;
}
