import { supabase } from '../../../lib/supabase.ts';
import { requestTrashProcessing } from '../../../lib/background-jobs.ts';
import type { FileFilters } from './search-files.ts';

/** Either explicit ids or "every file the filters match", which the database expands itself. */
export type FileSelection = { kind: 'ids'; ids: string[] } | { kind: 'filtered'; filters: FileFilters };

const target = (selection: FileSelection) =>
  selection.kind === 'ids'
    ? { p_file_ids: selection.ids, p_filter: undefined }
    : { p_file_ids: undefined, p_filter: { ...selection.filters } };

export interface SelectionSummary {
  count: number;
  published: number;
  processing: number;
  undeletable: number;
}

export async function getSelectionSummary(selection: FileSelection, signal?: AbortSignal): Promise<SelectionSummary> {
  const { data, error } = await supabase.rpc('file_selection_summary', target(selection)).abortSignal(signal!);
  if (error) throw error;
  return data as unknown as SelectionSummary;
}

export async function publishFiles(selection: FileSelection, published: boolean): Promise<number> {
  const { data, error } = await supabase.rpc('publish_files', { p_published: published, ...target(selection) });
  if (error) throw error;
  return data;
}

export async function deleteFiles(selection: FileSelection): Promise<number> {
  const { data, error } = await supabase.rpc('delete_files', target(selection));
  if (error) throw error;
  requestTrashProcessing();
  return data;
}

export async function addFilesToCollection(selection: FileSelection, collectionId: string): Promise<number> {
  const { data, error } = await supabase.rpc('add_files_to_collection', {
    p_collection_id: collectionId,
    ...target(selection),
  });
  if (error) throw error;
  return data;
}

export async function setFilesTags(selection: FileSelection, tagIds: string[]): Promise<number> {
  const { data, error } = await supabase.rpc('set_files_tags', { p_tag_ids: tagIds, ...target(selection) });
  if (error) throw error;
  return data;
}
