import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { publicPageKeys } from './keys.ts';
import { isUuid, publicFileSchema } from './schemas.ts';

/** A published file's public fields, or null when it is unpublished, deleted or unknown. */
export async function getPublicFile(id: string, signal: AbortSignal) {
  if (!isUuid(id)) return null;
  const { data, error } = await supabase.rpc('get_public_file', { p_file_id: id }).abortSignal(signal);
  if (error) throw error;
  return data === null ? null : publicFileSchema.parse(data);
}

export const publicFileQueryOptions = (id: string) =>
  queryOptions({ queryKey: publicPageKeys.file(id), queryFn: ({ signal }) => getPublicFile(id, signal) });
