import { queryOptions, useQuery } from '@tanstack/react-query';
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

/** Every staff account with its role, sorted by e-mail by the function. */
export async function getStaffUsers(signal?: AbortSignal): Promise<StaffUser[]> {
  const { users } = await invokeStaffUsers<{ users: StaffUser[] }>({ action: 'list' }, signal);
  return users;
}

export const staffUsersQueryOptions = () =>
  queryOptions({ queryKey: staffUserKeys.list(), queryFn: ({ signal }) => getStaffUsers(signal) });

export const useStaffUsers = () => useQuery(staffUsersQueryOptions());
