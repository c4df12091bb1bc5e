import { queryOptions } from '@tanstack/react-query';
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

export const tagCategoriesQuery = queryOptions({
  queryKey: catalogueKeys.tagCategories,
  queryFn: ({ signal }) => getTagCategories(signal),
});
export const tagsQuery = queryOptions({ queryKey: catalogueKeys.tags, queryFn: ({ signal }) => getTags(signal) });
export const collectionsQuery = queryOptions({
  queryKey: catalogueKeys.collections,
  queryFn: ({ signal }) => getCollections(signal),
});

/** What every private screen needs before routing is released. */
export const catalogueQueries = [tagCategoriesQuery, tagsQuery, collectionsQuery];
