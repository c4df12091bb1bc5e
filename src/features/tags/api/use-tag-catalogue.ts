import { useQuery } from '@tanstack/react-query';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { getTagCategories, getTags } from '../../../lib/catalogue/get-catalogue.ts';

/** The shared category and tag lists (kept live by the app's realtime sync). */
export function useTagCategories() {
  return useQuery({ queryKey: catalogueKeys.tagCategories, queryFn: ({ signal }) => getTagCategories(signal) });
}

export function useTags() {
  return useQuery({ queryKey: catalogueKeys.tags, queryFn: ({ signal }) => getTags(signal) });
}
