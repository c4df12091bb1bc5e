import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { afterFileChange } from './after-file-change.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

/** 'Añadir etiquetas' gives the selection these tags; 'Quitar etiquetas' takes them away. Other tags stay. */
export type TagChange = 'add' | 'remove';

export async function changeFilesTags(selection: FileSelection, change: TagChange, tagIds: string[]): Promise<number> {
  const args = { p_tag_ids: tagIds, ...selectionArgs(selection) };
  const { data, error } =
    change === 'add' ? await supabase.rpc('add_files_tags', args) : await supabase.rpc('remove_files_tags', args);
  if (error) throw error;
  return data;
}

/** 'Etiqueta añadida a 200 archivos', 'Etiquetas quitadas de 1 archivo'. */
export function tagChangeMessage(change: TagChange, tagCount: number, fileCount: number): string {
  const files = plural(fileCount, 'archivo', 'archivos');
  const one = tagCount === 1;
  return change === 'add'
    ? `${one ? 'Etiqueta añadida' : 'Etiquetas añadidas'} a ${files}.`
    : `${one ? 'Etiqueta quitada' : 'Etiquetas quitadas'} de ${files}.`;
}

/** Adds or removes tags on a selection, in one transaction, leaving each file's other tags alone. */
export function useChangeFilesTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ selection, change, tagIds }: { selection: FileSelection; change: TagChange; tagIds: string[] }) =>
      changeFilesTags(selection, change, tagIds),
    onSuccess: (count, { change, tagIds }) => {
      notify.success(tagChangeMessage(change, tagIds.length, count));
      return afterFileChange(queryClient);
    },
    onError: (error, { change }) =>
      notify.error(
        error,
        change === 'add' ? 'No se pudieron añadir las etiquetas.' : 'No se pudieron quitar las etiquetas.',
      ),
  });
}
