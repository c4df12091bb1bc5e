import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { trashKeys } from './keys.ts';

/** Borrar definitivamente: the trashed rows go now, their objects by a server job. */
export async function purgeFiles(fileIds: string[]): Promise<number> {
  const { data, error } = await supabase.rpc('purge_trashed_files', { p_file_ids: fileIds });
  if (error) throw error;
  return data;
}

export function usePurgeFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purgeFiles,
    onSuccess: (count) => notify.success(`${plural(count, 'archivo borrado', 'archivos borrados')} definitivamente.`),
    onError: (error) => notify.error(error, 'No se pudieron borrar los archivos.'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: trashKeys.all }),
  });
}
