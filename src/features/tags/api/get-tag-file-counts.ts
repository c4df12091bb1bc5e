import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { tagAdminKeys } from './keys.ts';

/** Files per tag id, counted by the database in one grouped scan (tags without files are absent). */
export async function getTagFileCounts(signal?: AbortSignal): Promise<Map<string, number>> {
  const { data, error } = await supabase.rpc('tag_file_counts').abortSignal(signal!);
  if (error) throw error;
  return new Map(data.map((row) => [row.tag_id, Number(row.file_count)]));
}

export const tagFileCountsQueryOptions = () =>
  queryOptions({ queryKey: tagAdminKeys.fileCounts(), queryFn: ({ signal }) => getTagFileCounts(signal) });
