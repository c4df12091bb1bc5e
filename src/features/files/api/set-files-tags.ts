import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export async function setFilesTags(selection: FileSelection, tagIds: string[]): Promise<number> {
  const { data, error } = await supabase.rpc('set_files_tags', { p_tag_ids: tagIds, ...selectionArgs(selection) });
  if (error) throw error;
  return data;
}

/** Bulk tag edit: replaces the tags of every selected file, in one transaction. */
export function useSetFilesTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ selection, tagIds }: { selection: FileSelection; tagIds: string[] }) =>
      setFilesTags(selection, tagIds),
    onSuccess: (count) => {
      notify.success(`Etiquetas guardadas en ${plural(count, 'archivo', 'archivos')}.`);
      return afterFileChange(queryClient);
    },
    onError: (error) => notify.error(error, 'No se pudieron guardar las etiquetas.'),
  });
}
