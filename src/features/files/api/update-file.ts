import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { afterFileChange } from './after-file-change.ts';

export interface FileEdit {
  fileId: string;
  texts: { name_es: string; name_en: string; description_es: string; description_en: string };
  /** Admin-only options; uploaders send none and the database refuses them if they do. */
  options?: { b2b: boolean; operations: boolean };
  tagIds: string[];
  /** Admin-only; omitted, the file's collections stay as they are. */
  collectionIds?: string[];
}

/** Texts, options, tags and collections of one file in one transaction (public.update_file). */
export async function updateFile(edit: FileEdit): Promise<void> {
  const { error } = await supabase.rpc('update_file', {
    p_file_id: edit.fileId,
    p_fields: { ...edit.texts, ...edit.options },
    p_tag_ids: edit.tagIds,
    ...(edit.collectionIds ? { p_collection_ids: edit.collectionIds } : {}),
  });
  if (error) throw error;
}

export function useUpdateFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFile,
    onSuccess: () => {
      notify.success('Cambios guardados.');
      return afterFileChange(queryClient);
    },
    onError: (error) => notify.error(error, 'No se pudieron guardar los cambios.'),
  });
}
