import { useMutation } from '@tanstack/react-query';
import { notify } from '../../../lib/notify.ts';
import { invokeStaffUsers } from './invoke-staff-users.ts';

export const updateStaffPassword = ({ uid, password }: { uid: string; password: string }) =>
  invokeStaffUsers<{ uid: string }>({ action: 'update-password', uid, password });

/** The form shows a failure itself, in red, so only success gets a toast. */
export function useUpdateStaffPassword() {
  return useMutation({
    mutationFn: updateStaffPassword,
    onSuccess: () => notify.success('Contraseña cambiada'),
  });
}
