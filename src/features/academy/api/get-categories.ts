import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { academyKeys } from './keys.ts';

/** Academy categories sorted by nameEs. */
export async function getCategories(signal?: AbortSignal) {
  const { data, error } = await supabase.from('academy_categories').select('*').order('name_es').abortSignal(signal!);
  if (error) throw error;
  return data;
}

export type AcademyCategory = Awaited<ReturnType<typeof getCategories>>[number];

export const categoriesQueryOptions = () =>
  queryOptions({ queryKey: academyKeys.categories(), queryFn: ({ signal }) => getCategories(signal) });
