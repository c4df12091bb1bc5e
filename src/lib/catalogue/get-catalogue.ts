import { supabase } from '../supabase.ts';
import { catalogueKeys } from './keys.ts';

export async function getTagCategories(signal?: AbortSignal) {
  const { data, error } = await supabase.from('tag_categories').select('*').order('name_es').abortSignal(signal!);
  if (error) throw error;
  return data;
}

export async function getTags(signal?: AbortSignal) {
  const { data, error } = await supabase.from('tags').select('*').order('name_es').abortSignal(signal!);
  if (error) throw error;
  return data;
}

export async function getCollections(signal?: AbortSignal) {
  const { data, error } = await supabase.from('collections').select('*').order('name').abortSignal(signal!);
  if (error) throw error;
  return data;
}

/** What every private screen needs before routing is released (spec section 2). */
export const catalogueQueries = [
  { queryKey: catalogueKeys.tagCategories, queryFn: ({ signal }: { signal: AbortSignal }) => getTagCategories(signal) },
  { queryKey: catalogueKeys.tags, queryFn: ({ signal }: { signal: AbortSignal }) => getTags(signal) },
  { queryKey: catalogueKeys.collections, queryFn: ({ signal }: { signal: AbortSignal }) => getCollections(signal) },
];
