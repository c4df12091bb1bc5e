import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { operationsKeys } from './keys.ts';

/** The single popup row (id 1), admin-only by RLS. */
export async function getOperationsPopup(signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('operations_popup')
    .select('title, message, active, updated_at')
    .eq('id', 1)
    .abortSignal(signal!)
    .single();
  if (error) throw error;
  return data;
}

export const operationsPopupQueryOptions = () =>
  queryOptions({ queryKey: operationsKeys.popup(), queryFn: ({ signal }) => getOperationsPopup(signal) });

export const useOperationsPopup = () => useQuery(operationsPopupQueryOptions());
