import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/notify.ts';
import { invokeStaffUsers, messageOf } from './invoke-staff-users.ts';
import { staffUserKeys } from './keys.ts';
import type { StaffRole } from './staff-user-schema.ts';

export const updateStaffRole = ({ uid, role }: { uid: string; role: StaffRole }) =>
  invokeStaffUsers<{ uid: string }>({ action: 'update-role', uid, role });

/** The person's open sessions follow the change live: the app shell watches its own staff row. */
export function useUpdateStaffRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStaffRole,
    onSuccess: (_, { role }) => notify.success(`Rol cambiado a ${role}`),
    onError: (error) => notify.error(error, messageOf(error, 'No se pudo cambiar el rol.')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffUserKeys.all }),
  });
}
