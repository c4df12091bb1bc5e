import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export async function publishFiles(selection: FileSelection, published: boolean): Promise<number> {
  const { data, error } = await supabase.rpc('publish_files', { p_published: published, ...selectionArgs(selection) });
  if (error) throw error;
  return data;
}

/** Activar / Desactivar, for one file or a selection (admins; the database refuses anyone else). */
export function usePublishFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ selection, published }: { selection: FileSelection; published: boolean }) =>
      publishFiles(selection, published),
    onSuccess: (count, { published }) => {
      notify.success(
        published
          ? `${plural(count, 'archivo activado', 'archivos activados')}.`
          : `${plural(count, 'archivo desactivado', 'archivos desactivados')}.`,
      );
      return afterFileChange(queryClient);
    },
    onError: (error) => notify.error(error, 'No se pudo cambiar el estado de los archivos.'),
  });
}
