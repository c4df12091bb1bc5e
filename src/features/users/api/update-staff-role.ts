import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/notify.ts';
import { invokeStaffUsers, messageOf } from './invoke-staff-users.ts';
import { staffUserKeys } from './keys.ts';
import type { StaffRole } from './staff-user-schema.ts';
import type { StaffUser } from './get-staff-users.ts';

export const updateStaffRole = ({ uid, role }: { uid: string; role: StaffRole }) =>
  invokeStaffUsers<{ uid: string }>({ action: 'update-role', uid, role });

/**
 * The list shows the new role at once (and goes back if the function refuses). The person's open sessions
 * follow the change live: the app shell watches its own staff row.
 */
export function useUpdateStaffRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStaffRole,
    onMutate: async ({ uid, role }) => {
      await queryClient.cancelQueries({ queryKey: staffUserKeys.list() });
      const previous = queryClient.getQueryData<StaffUser[]>(staffUserKeys.list());
      queryClient.setQueryData<StaffUser[]>(staffUserKeys.list(), (users) =>
        users?.map((user) => (user.uid === uid ? { ...user, role } : user)),
      );
      return { previous };
    },
    onSuccess: (_, { role }) => notify.success(`Rol cambiado a ${role}`),
    onError: (error, _, context) => {
      if (context?.previous) queryClient.setQueryData(staffUserKeys.list(), context.previous);
      notify.error(error, messageOf(error, 'No se pudo cambiar el rol.'));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffUserKeys.all }),
  });
}
