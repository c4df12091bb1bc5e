import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { operationsKeys } from './keys.ts';
import { messageToStored } from './popup-message.ts';
import type { PopupValues } from './popup-schema.ts';

/** Saves the popup's title, message and active flag; the message is stored escaped, with <br>. */
export async function updateOperationsPopup({ title, message, active }: PopupValues) {
  const { data, error } = await supabase
    .from('operations_popup')
    .update({ title, message: messageToStored(message), active })
    .eq('id', 1)
    .select('title, message, active, updated_at')
    .single();
  if (error) throw error;
  return data;
}

export function useUpdateOperationsPopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOperationsPopup,
    onSuccess: (popup) => {
      queryClient.setQueryData(operationsKeys.popup(), popup);
      notify.success(popup.active ? 'Aviso guardado y activo' : 'Aviso guardado (no activo)');
    },
    onError: (error) => notify.error(error, 'No se pudo guardar el popup.'),
  });
}
