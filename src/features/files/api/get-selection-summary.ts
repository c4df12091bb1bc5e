import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { fileKeys } from './keys.ts';
import { selectionArgs, type FileSelection } from './selection.ts';

export interface SelectionSummary {
  count: number;
  published: number;
  processing: number;
  undeletable: number;
}

export async function getSelectionSummary(selection: FileSelection, signal?: AbortSignal): Promise<SelectionSummary> {
  const { data, error } = await supabase.rpc('file_selection_summary', selectionArgs(selection)).abortSignal(signal!);
  if (error) throw error;
  return data as unknown as SelectionSummary;
}

export const selectionSummaryQuery = (selection: FileSelection) =>
  queryOptions({
    queryKey: fileKeys.selection(selection),
    queryFn: ({ signal }) => getSelectionSummary(selection, signal),
  });
