import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/notify.ts';
import { invokeStaffUsers } from './invoke-staff-users.ts';
import { staffUserKeys } from './keys.ts';
import type { StaffRole } from './staff-user-schema.ts';

export interface InviteValues {
  email: string;
  role: StaffRole;
}

/** The invitation's link leads to the app's /reset-password, where the person chooses their password. */
export const inviteStaffUser = (values: InviteValues) =>
  invokeStaffUsers<{ uid: string }>({
    action: 'invite',
    ...values,
    redirectTo: `${window.location.origin}/reset-password`,
  });

/** The form shows a failure itself, in red; success gets a toast. */
export function useInviteStaffUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteStaffUser,
    onSuccess: async (_, values) => {
      await queryClient.invalidateQueries({ queryKey: staffUserKeys.all });
      notify.success(`Invitación enviada a ${values.email}`);
    },
  });
}
