import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/notify.ts';
import { invokeStaffUsers, messageOf } from './invoke-staff-users.ts';
import { staffUserKeys } from './keys.ts';

export const deleteStaffUser = (uid: string) => invokeStaffUsers<{ uid: string }>({ action: 'delete', uid });

export function useDeleteStaffUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uid }: { uid: string; email: string }) => deleteStaffUser(uid),
    onSuccess: async (_, { email }) => {
      await queryClient.invalidateQueries({ queryKey: staffUserKeys.all });
      notify.success(`Usuario ${email} borrado`);
    },
    onError: (error) => notify.error(error, messageOf(error, 'No se pudo borrar el usuario.')),
  });
}
