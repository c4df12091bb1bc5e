import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export const PROCESSING_DELETE_MESSAGE = 'No se pueden borrar archivos en proceso';

export async function deleteFiles(selection: FileSelection): Promise<number> {
  const { data, error } = await supabase.rpc('delete_files', selectionArgs(selection));
  if (error) throw error;
  return data;
}

/** Borrar, for one file or a selection; a processing file refuses the whole call. */
export function useDeleteFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: FileSelection) => deleteFiles(selection),
    onSuccess: (count, selection) => {
      notify.success(`${plural(count, 'archivo borrado', 'archivos borrados')}.`);
      // Not awaited: the detail screen leaves for the list as soon as the file is gone, not after the refetches.
      void afterFileChange(queryClient, selection.kind === 'ids' ? selection.ids : []);
    },
    // The database refuses a processing file with PROCESSING_DELETE_MESSAGE itself, which notify shows as is.
    onError: (error) => notify.error(error, 'No se pudieron borrar los archivos.'),
  });
}
