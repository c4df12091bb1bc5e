import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { LIBRARY_KEYS, trashKeys } from './keys.ts';

/** Restaurar: row, texts, tags and collections back at once; the server moves the object back. */
export async function restoreFiles(fileIds: string[]): Promise<number> {
  const { data, error } = await supabase.rpc('restore_files', { p_file_ids: fileIds });
  if (error) throw error;
  return data;
}

export function useRestoreFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreFiles,
    onSuccess: (count) => notify.success(`${plural(count, 'archivo restaurado', 'archivos restaurados')}.`),
    onError: (error) => notify.error(error, 'No se pudieron restaurar los archivos.'),
    onSettled: () =>
      Promise.all([trashKeys.all, ...LIBRARY_KEYS].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
