import * as z from 'zod/mini';

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
// zod/mini (tree-shakable): the files screen parses its URL before the first paint.
const dropInvalid = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

/**
 * One schema for the filters, read from the URL and sent to public.search_files as they are: a value the
 * database would refuse (an unknown type, a tag id that is not a uuid) is dropped here instead, so a hand-edited
 * or old link still opens the screen.
 */
export const fileFiltersSchema = z.object({
  query: dropInvalid(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  type: dropInvalid(z.enum(['image', 'not-image'])),
  tagId: dropInvalid(uuid),
  collectionId: dropInvalid(uuid),
  status: dropInvalid(z.enum(['published', 'unpublished'])),
  operations: dropInvalid(z.literal('OPERATIONS')),
  /** Files whose English title or description still need writing. */
  translation: dropInvalid(z.literal('missing')),
  /** Files whose bytes another file already has (same sha256). */
  duplicates: dropInvalid(z.literal('only')),
});
export type FileFilters = z.infer<typeof fileFiltersSchema>;

export const fileSortSchema = z.catch(
  z.enum(SORTS.map((sort) => sort.value) as [FileSort, ...FileSort[]]),
  DEFAULT_SORT,
);

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
