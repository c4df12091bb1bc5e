import type { Database } from '../../../types/database.ts';

/** The sorts of the files screen (spec section 9): the values of the database's enum public.file_sort. */
export const SORTS = [
  { value: 'uploadedOn_desc', label: 'Más recientes primero' },
  { value: 'uploadedOn_asc', label: 'Más antiguos primero' },
  { value: 'size_desc', label: 'Más grandes primero' },
  { value: 'size_asc', label: 'Más pequeños primero' },
  { value: 'nameEs_asc', label: 'Nombre (A-Z)' },
  { value: 'nameEs_desc', label: 'Nombre (Z-A)' },
] as const satisfies ReadonlyArray<{ value: Database['public']['Enums']['file_sort']; label: string }>;
export type FileSort = (typeof SORTS)[number]['value'];
// Fails to compile when the database gains a sort this list has no label for (`satisfies` checks the reverse).
export const everyDatabaseSortLabelled: [Exclude<Database['public']['Enums']['file_sort'], FileSort>] extends [never]
  ? true
  : never = true;
export const DEFAULT_SORT: FileSort = 'uploadedOn_desc';

// Checked by hand, not with zod: the files screen parses its URL before the first paint, and zod would be the
// only reason to ship it in the initial JS. The uuid pattern is zod's (RFC 9562 versions and variants).
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const uuid = (value: string) => (UUID.test(value) ? value : undefined);
const oneOf =
  <T extends string>(...allowed: readonly T[]) =>
  (value: string) =>
    allowed.find((candidate) => candidate === value);

/**
 * The filters, read from the URL and sent to public.search_files as they are: a value the database would
 * refuse (an unknown type, a tag id that is not a uuid) is dropped here instead, so a hand-edited or old link
 * still opens the screen.
 */
const filterParsers = {
  query: (value: string) => {
    const trimmed = value.trim();
    return trimmed.length >= 1 && trimmed.length <= 200 ? trimmed : undefined;
  },
  type: oneOf('image', 'not-image'),
  tagId: uuid,
  collectionId: uuid,
  status: oneOf('published', 'unpublished'),
  operations: oneOf('OPERATIONS'),
  /** Files whose English title or description still need writing. */
  translation: oneOf('missing'),
  /** Files whose bytes another file already has (same sha256). */
  duplicates: oneOf('only'),
};
export type FileFilters = {
  [Key in keyof typeof filterParsers]?: NonNullable<ReturnType<(typeof filterParsers)[Key]>>;
};

const parseSort = (value: string): FileSort => SORTS.find((sort) => sort.value === value)?.value ?? DEFAULT_SORT;

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
  const filters: Record<string, string> = {};
  for (const [key, param] of Object.entries(FILTER_PARAMS)) {
    const raw = params.get(param);
    const value = raw === null ? undefined : filterParsers[key as keyof FileFilters](raw);
    if (value !== undefined) filters[key] = value;
  }
  return { filters: filters as FileFilters, sort: parseSort(params.get('sort') ?? DEFAULT_SORT) };
}
