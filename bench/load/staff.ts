import type { SupabaseClient } from '@supabase/supabase-js';
import { clientFor } from '../lib/harness.ts';
import type { StackEndpoints } from '../lib/stack-process.ts';
import type { Metrics } from './metrics.ts';

/** One simulated member of staff: an account of their own, signed in on the official client. */
export interface Person {
  name: string;
  role: 'ADMIN' | 'UPLOADER';
  userId: string;
  email: string;
  password: string;
  client: SupabaseClient;
}

const PASSWORD = 'carga-de-trabajo-1';

/** Accounts made as an admin makes them (Auth's admin API, then the staff row), not yet signed in. */
export async function createStaff(stack: StackEndpoints, uploaders: number, admins: number) {
  const service = clientFor(stack, stack.serviceRoleKey);
  const wanted = [
    ...Array.from({ length: admins }, (_, i) => ({ name: `admin-${i + 1}`, role: 'ADMIN' as const })),
    ...Array.from({ length: uploaders }, (_, i) => ({ name: `uploader-${i + 1}`, role: 'UPLOADER' as const })),
  ];
  const accounts: Array<Omit<Person, 'client'>> = [];
  for (const { name, role } of wanted) {
    const email = `${name}@carga.mediateca.local`;
    const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    if (created.error) throw created.error;
    const staff = await service.from('staff').insert({ user_id: created.data.user.id, email, role });
    if (staff.error) throw staff.error;
    accounts.push({ name, role, userId: created.data.user.id, email, password: PASSWORD });
  }
  return accounts;
}

/** Signs one person in on a client of their own (timed as 'sign in'); a refusal is what they would see. */
export async function signIn(
  stack: StackEndpoints,
  account: Omit<Person, 'client'>,
  metrics: Metrics,
): Promise<Person | null> {
  const client = clientFor(stack);
  const started = performance.now();
  const { error } = await client.auth.signInWithPassword({ email: account.email, password: account.password });
  if (error) {
    metrics.personSaw('sign in', error);
    return null;
  }
  metrics.record('sign in', performance.now() - started);
  return { ...account, client };
}

export async function signOut(person: Person) {
  await person.client.removeAllChannels();
  await person.client.auth.signOut({ scope: 'local' });
}
