import { queryOptions, useQuery } from '@tanstack/react-query';
import { readSignal } from '../../../lib/request-deadline.ts';
import { invokeStaffUsers } from './invoke-staff-users.ts';
import { staffUserKeys } from './keys.ts';
import type { StaffRole } from './staff-user-schema.ts';

export interface StaffUser {
  uid: string;
  email: string;
  /** null: an Auth account without a staff role (it cannot sign in). */
  role: StaffRole | null;
  createdAt: string;
  lastSignInAt: string | null;
}

/**
 * Every staff account with its role, sorted by e-mail by the function. A read, though a POST: it has the read
 * deadline, so the screen says it could not load instead of waiting on a function that does not answer.
 */
export async function getStaffUsers(signal?: AbortSignal): Promise<StaffUser[]> {
  const { users } = await invokeStaffUsers<{ users: StaffUser[] }>({ action: 'list' }, readSignal(signal));
  return users;
}

export const staffUsersQueryOptions = () =>
  queryOptions({ queryKey: staffUserKeys.list(), queryFn: ({ signal }) => getStaffUsers(signal) });

export const useStaffUsers = () => useQuery(staffUsersQueryOptions());
