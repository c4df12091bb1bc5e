import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';

/** Published files whose rights end within 30 days, today included (public.count_rights_expiring_soon; admins). */
export async function countRightsExpiringSoon(signal: AbortSignal): Promise<number> {
  const { data, error } = await supabase.rpc('count_rights_expiring_soon').abortSignal(signal);
  if (error) throw error;
  return data;
}

export const rightsExpiringQuery = queryOptions({
  queryKey: fileKeys.rightsExpiring(),
  queryFn: ({ signal }) => countRightsExpiringSoon(signal),
});
