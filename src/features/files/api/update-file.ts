import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { afterFileChange } from './after-file-change.ts';
import type { RightsUpdate } from '../lib/rights-values.ts';

export interface FileEdit {
  fileId: string;
  texts: { name_es: string; name_en: string; description_es: string; description_en: string };
  /** Admin-only options; uploaders send none and the database refuses them if they do. */
  options?: { b2b: boolean; operations: boolean };
  tagIds: string[];
  /** Admin-only; omitted, the file's collections stay as they are. */
  collectionIds?: string[];
  /** The whole 'Derechos' section when the form changed any of it; omitted, the rights stay as they are. */
  rights?: RightsUpdate | null;
  /** What the form read: a save against anything newer is refused (no lost update). */
  expected: { updatedAt: string; tagIds: string[]; collectionIds?: string[] };
}

/** The database's answer when someone else saved the file after the form read it. */
export const isFileChangedError = (error: unknown) => (error as { hint?: string } | null)?.hint === 'FILE_CHANGED';

/**
 * Texts, options, rights, tags and collections of one file in one transaction (public.update_file). Who may
 * write which right (an uploader may not clear or delay the expiry date) is the database's rule.
 */
export async function updateFile(edit: FileEdit) {
  const { data, error } = await supabase.rpc('update_file', {
    p_file_id: edit.fileId,
    p_name_es: edit.texts.name_es,
    p_name_en: edit.texts.name_en,
    p_description_es: edit.texts.description_es,
    p_description_en: edit.texts.description_en,
    ...(edit.options ? { p_b2b: edit.options.b2b, p_operations: edit.options.operations } : {}),
    p_tag_ids: edit.tagIds,
    ...(edit.collectionIds ? { p_collection_ids: edit.collectionIds } : {}),
    ...(edit.rights
      ? {
          p_save_rights: true,
          p_rights_creator: edit.rights.rights_creator,
          p_rights_credit: edit.rights.rights_credit,
          p_rights_copyright: edit.rights.rights_copyright,
          p_rights_license: edit.rights.rights_license ?? undefined,
          p_rights_usage_terms: edit.rights.rights_usage_terms,
          p_rights_expire_on: edit.rights.rights_expire_on ?? undefined,
          p_rights_release: edit.rights.rights_release ?? undefined,
        }
      : {}),
    p_expected_updated_at: edit.expected.updatedAt,
    p_expected_tag_ids: edit.expected.tagIds,
    ...(edit.expected.collectionIds ? { p_expected_collection_ids: edit.expected.collectionIds } : {}),
  });
  if (error) throw error;
  return data;
}

export function useUpdateFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFile,
    onSuccess: () => {
      notify.success('Cambios guardados.');
      // Not awaited: the form takes what was saved as its new start at once. Awaiting the refetches held that
      // back, and what the person typed meanwhile was then reset away.
      void afterFileChange(queryClient);
    },
    // A conflict is shown by the form itself, with both versions; anything else is a toast.
    onError: (error) => {
      if (!isFileChangedError(error)) notify.error(error, 'No se pudieron guardar los cambios.');
    },
  });
}
