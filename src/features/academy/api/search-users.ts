import { infiniteQueryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { academyKeys } from './keys.ts';

export const USERS_PAGE_SIZE = 100;

/** One page of members matching every typed word (server-side, accent-insensitive), newest first. */
export async function searchUsers(query: string, offset: number, signal?: AbortSignal) {
  const { data, error } = await supabase
    .rpc('search_academy_users', { p_query: query, p_limit: USERS_PAGE_SIZE, p_offset: offset })
    .abortSignal(signal!);
  if (error) throw error;
  return data;
}

export type AcademyUser = Awaited<ReturnType<typeof searchUsers>>[number];

export const usersQueryOptions = (query: string) =>
  infiniteQueryOptions({
    queryKey: academyKeys.userList(query),
    queryFn: ({ signal, pageParam }) => searchUsers(query, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) =>
      lastPage.length < USERS_PAGE_SIZE ? undefined : pages.length * USERS_PAGE_SIZE,
  });
