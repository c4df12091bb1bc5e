import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/notify.ts';
import { invokeStaffUsers } from './invoke-staff-users.ts';
import { staffUserKeys } from './keys.ts';
import type { NewUserValues } from './staff-user-schema.ts';

export const createStaffUser = (values: NewUserValues) =>
  invokeStaffUsers<{ uid: string }>({ action: 'create', ...values });

/** The form shows a failure itself, in red, so only success gets a toast. */
export function useCreateStaffUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStaffUser,
    onSuccess: async (_, values) => {
      await queryClient.invalidateQueries({ queryKey: staffUserKeys.all });
      notify.success(`Usuario ${values.email} creado`);
    },
  });
}
