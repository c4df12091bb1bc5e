import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { trashKeys } from './keys.ts';

/** The Papelera shows the most recent deletions first; older ones beyond this are listed after a purge. */
export const TRASH_PAGE = 200;

/** How long the database keeps a deleted file (private.trash_retention()). */
export const RETENTION_DAYS = 30;

export async function getTrashedFiles(signal: AbortSignal) {
  const { data, error, count } = await supabase
    .from('trashed_files')
    .select('file_id, name_es, extension, is_image, object_path, preview_path, deleted_at, deleted_by_email', {
      count: 'exact',
    })
    .order('deleted_at', { ascending: false })
    .order('file_id')
    .range(0, TRASH_PAGE - 1)
    .abortSignal(signal);
  if (error) throw error;
  return { files: data, total: count ?? data.length };
}

export type TrashedFile = Awaited<ReturnType<typeof getTrashedFiles>>['files'][number];

export const trashedFilesQueryOptions = () =>
  queryOptions({ queryKey: trashKeys.lists(), queryFn: ({ signal }) => getTrashedFiles(signal) });

/** When the job queue will purge a file deleted at `deletedAt`. */
export const purgeDate = (deletedAt: string) => new Date(new Date(deletedAt).getTime() + RETENTION_DAYS * 86_400_000);
