import { z } from 'zod';

/** The sorts of the files screen (spec section 9), as public.search_files names them. */
export const SORTS = [
  { value: 'uploadedOn_desc', label: 'Más recientes primero' },
  { value: 'uploadedOn_asc', label: 'Más antiguos primero' },
  { value: 'size_desc', label: 'Más grandes primero' },
  { value: 'size_asc', label: 'Más pequeños primero' },
  { value: 'nameEs_asc', label: 'Nombre (A-Z)' },
  { value: 'nameEs_desc', label: 'Nombre (Z-A)' },
] as const;
export type FileSort = (typeof SORTS)[number]['value'];
export const DEFAULT_SORT: FileSort = 'uploadedOn_desc';

const uuid = z.uuid();

/**
 * One schema for the filters, read from the URL and sent to public.search_files as they are: a value the
 * database would refuse (an unknown type, a tag id that is not a uuid) is dropped here instead, so a hand-edited
 * or old link still opens the screen.
 */
export const fileFiltersSchema = z.object({
  query: z.string().trim().min(1).max(200).optional().catch(undefined),
  type: z.enum(['image', 'not-image']).optional().catch(undefined),
  tagId: uuid.optional().catch(undefined),
  collectionId: uuid.optional().catch(undefined),
  status: z.enum(['published', 'unpublished']).optional().catch(undefined),
  operations: z.literal('OPERATIONS').optional().catch(undefined),
  /** Files whose English title or description still need writing. */
  translation: z.literal('missing').optional().catch(undefined),
  /** Files whose bytes another file already has (same sha256). */
  duplicates: z.literal('only').optional().catch(undefined),
});
export type FileFilters = z.infer<typeof fileFiltersSchema>;

export const fileSortSchema = z.enum(SORTS.map((sort) => sort.value) as [FileSort, ...FileSort[]]).catch(DEFAULT_SORT);

/** URL parameter names (shared links and the tags screen's count links use them). */
export const FILTER_PARAMS = {
  query: 'q',
  type: 'type',
  tagId: 'tag',
  collectionId: 'collection',
  status: 'status',
  operations: 'operations',
  translation: 'translation',
  duplicates: 'duplicates',
} as const satisfies Record<keyof FileFilters, string>;

/** The filters and sort in a URL's search parameters; anything invalid is left out. */
export function filtersFromParams(params: URLSearchParams): { filters: FileFilters; sort: FileSort } {
  const raw = Object.fromEntries(
    Object.entries(FILTER_PARAMS).map(([key, param]) => [key, params.get(param) ?? undefined]),
  );
  const parsed = fileFiltersSchema.parse(raw);
  const filters = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as FileFilters;
  return { filters, sort: fileSortSchema.parse(params.get('sort') ?? DEFAULT_SORT) };
}
