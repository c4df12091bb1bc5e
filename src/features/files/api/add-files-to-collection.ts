import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export async function addFilesToCollection(selection: FileSelection, collectionId: string): Promise<number> {
  const { data, error } = await supabase.rpc('add_files_to_collection', {
    p_collection_id: collectionId,
    ...selectionArgs(selection),
  });
  if (error) throw error;
  return data;
}

/** 'Añadir a colección...' of the selection bar (admins). */
export function useAddFilesToCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ selection, collection }: { selection: FileSelection; collection: { id: string; name: string } }) =>
      addFilesToCollection(selection, collection.id),
    onSuccess: (count, { collection }) => {
      notify.success(`${plural(count, 'archivo añadido', 'archivos añadidos')} a «${collection.name}».`);
      return afterFileChange(queryClient);
    },
    onError: (error) => notify.error(error, 'No se pudieron añadir los archivos a la colección.'),
  });
}
