import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { academyKeys } from './keys.ts';

/** One member with the private categories granted to them. */
export async function getUser(userId: string, signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('academy_users')
    .select('id, name, email, company, city, country, created_on, academy_user_categories(category_id)')
    .eq('id', userId)
    .abortSignal(signal!)
    .single();
  if (error) throw error;
  const { academy_user_categories, ...user } = data;
  return { ...user, allowedCategoryIds: academy_user_categories.map((grant) => grant.category_id) };
}

export const userQueryOptions = (userId: string) =>
  queryOptions({ queryKey: academyKeys.user(userId), queryFn: ({ signal }) => getUser(userId, signal) });
