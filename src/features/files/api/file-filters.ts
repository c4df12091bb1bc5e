import type { Database } from '../../../types/database.ts';

/** The sorts of the files screen: the values of the database's enum public.file_sort. */
export const SORTS = [
  { value: 'uploadedOn_desc', label: 'Más recientes primero' },
  { value: 'uploadedOn_asc', label: 'Más antiguos primero' },
  { value: 'size_desc', label: 'Más grandes primero' },
  { value: 'size_asc', label: 'Más pequeños primero' },
  { value: 'nameEs_asc', label: 'Nombre (A-Z)' },
  { value: 'nameEs_desc', label: 'Nombre (Z-A)' },
  { value: 'capturedAt_desc', label: 'Fecha de captura (recientes primero)' },
  { value: 'capturedAt_asc', label: 'Fecha de captura (antiguas primero)' },
] as const satisfies ReadonlyArray<{ value: Database['public']['Enums']['file_sort']; label: string }>;
export type FileSort = (typeof SORTS)[number]['value'];
// Fails to compile when the database gains a sort this list has no label for (`satisfies` checks the reverse).
export const everyDatabaseSortLabelled: [Exclude<Database['public']['Enums']['file_sort'], FileSort>] extends [never]
  ? true
  : never = true;
export const DEFAULT_SORT: FileSort = 'uploadedOn_desc';

/** A date column of the files a sort can order by. */
export type FileDateColumn = 'uploaded_on' | 'captured_at';

/**
 * The date column a sort orders by, or null for a sort that is not by date: the one place the app decides it
 * (the month headings, the timeline's months and a month's first page follow it), as
 * private.file_sort_date_column does in the database.
 */
export function sortDateColumn(sort: string): FileDateColumn | null {
  const key = sort.split('_')[0];
  if (key === 'uploadedOn') return 'uploaded_on';
  if (key === 'capturedAt') return 'captured_at';
  return null;
}

/** Sorts by a date: the grid groups them under month headings and shows the timeline. */
export const isDateSort = (sort: string) => sortDateColumn(sort) !== null;

/** The same order the other way round: what a page before a file is read with. */
export function reversedSort(sort: FileSort): FileSort {
  const [key, direction] = sort.split('_');
  return `${key}_${direction === 'asc' ? 'desc' : 'asc'}` as FileSort;
}

interface Choice {
  value: string;
  label: string;
}

/**
 * The one table of the files screen's filters: the key public.search_files reads in its p_filter, the URL
 * parameter, the Spanish label and, for a fixed choice, its values and their labels. The URL parser, the
 * filter bar, its chips and the phone's sheet are all driven by it; `tests/integration/file-filters.test.ts`
 * checks it against the SQL side (private.file_filter_condition), so a value added on one side only fails.
 */
export const FILE_FILTERS = {
  query: { param: 'q', label: 'Buscar', kind: 'text' },
  type: {
    param: 'type',
    label: 'Tipo',
    kind: 'choice',
    choices: [
      { value: 'image', label: 'Imágenes' },
      { value: 'not-image', label: 'Documentos' },
    ],
  },
  tagId: { param: 'tag', label: 'Etiqueta', kind: 'id' },
  collectionId: { param: 'collection', label: 'Colección', kind: 'id' },
  status: {
    param: 'status',
    label: 'Estado',
    kind: 'choice',
    choices: [
      { value: 'published', label: 'Activos' },
      { value: 'unpublished', label: 'No activos' },
    ],
  },
  operations: {
    param: 'operations',
    label: 'Operaciones',
    kind: 'choice',
    feature: 'operations',
    choices: [{ value: 'OPERATIONS', label: 'Operaciones' }],
  },
  /** Files whose English title or description still need writing. */
  translation: {
    param: 'translation',
    label: 'Traducción',
    kind: 'choice',
    choices: [{ value: 'missing', label: 'Sin traducir' }],
  },
  /** Files whose bytes another file already has (same sha256). */
  duplicates: {
    param: 'duplicates',
    label: 'Duplicados',
    kind: 'choice',
    choices: [{ value: 'only', label: 'Solo duplicados' }],
  },
  /** Uploads whose processing failed for good ('No se pudo procesar'): to replace or delete. */
  processing: {
    param: 'processing',
    label: 'Procesado',
    kind: 'choice',
    choices: [{ value: 'failed', label: 'No se pudo procesar' }],
  },
  /** Rights expired, expiring within 30 days (today included), or no author recorded; by Madrid's date. */
  rights: {
    param: 'rights',
    label: 'Derechos',
    kind: 'choice',
    choices: [
      { value: 'expired', label: 'Caducados' },
      { value: 'expiring', label: 'Caducan en 30 días' },
      { value: 'no-creator', label: 'Sin autor' },
    ],
  },
} as const satisfies Record<
  string,
  | { param: string; label: string; kind: 'text' | 'id' }
  | { param: string; label: string; kind: 'choice'; choices: readonly Choice[]; feature?: 'operations' }
>;

export type FilterKey = keyof typeof FILE_FILTERS;
type Definition<Key extends FilterKey> = (typeof FILE_FILTERS)[Key];
export type ChoiceKey = {
  [Key in FilterKey]: Definition<Key> extends { kind: 'choice' } ? Key : never;
}[FilterKey];

/** The filters as search_files takes them: a choice is one of its values, an id a uuid, the query text. */
export type FileFilters = {
  [Key in FilterKey]?: Definition<Key> extends { choices: ReadonlyArray<infer C> }
    ? C extends { value: infer V }
      ? V
      : never
    : string;
};

export const CHOICE_KEYS = (Object.keys(FILE_FILTERS) as FilterKey[]).filter(
  (key): key is ChoiceKey => FILE_FILTERS[key].kind === 'choice',
);

/** URL parameter names (shared links and the tags screen's count links use them). */
export const FILTER_PARAMS = Object.fromEntries(
  Object.entries(FILE_FILTERS).map(([key, definition]) => [key, definition.param]),
) as { [Key in FilterKey]: Definition<Key>['param'] };

/** The label of a choice's value, for the bar's chips. */
export function choiceLabel(key: ChoiceKey, value: string): string | undefined {
  return FILE_FILTERS[key].choices.find((choice: Choice) => choice.value === value)?.label;
}

/** The options of a fixed-choice filter for a menu or a radio group: the first ('Todos', value '') unsets it. */
export const choiceOptions = (key: ChoiceKey): Choice[] => [
  { value: '', label: key === 'translation' ? 'Todas' : 'Todos' },
  ...FILE_FILTERS[key].choices,
];

// Checked by hand, not with zod: the files screen parses its URL before the first paint, and zod would be the
// only reason to ship it in the initial JS. The uuid pattern is zod's (RFC 9562 versions and variants).
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

/**
 * One filter's value from the URL, as search_files will accept it, or undefined: a value the database would
 * refuse (an unknown type, a tag id that is not a uuid) is dropped, so a hand-edited or old link still opens.
 */
function parseValue(key: FilterKey, raw: string): string | undefined {
  const definition = FILE_FILTERS[key];
  switch (definition.kind) {
    case 'text': {
      const trimmed = raw.trim();
      return trimmed.length >= 1 && trimmed.length <= 200 ? trimmed : undefined;
    }
    case 'id':
      return UUID.test(raw) ? raw : undefined;
    case 'choice':
      return definition.choices.find((choice: Choice) => choice.value === raw)?.value;
  }
}

const parseSort = (value: string): FileSort => SORTS.find((sort) => sort.value === value)?.value ?? DEFAULT_SORT;

/** The filters and sort in a URL's search parameters; anything invalid is left out. */
export function filtersFromParams(params: URLSearchParams): { filters: FileFilters; sort: FileSort } {
  const filters: Record<string, string> = {};
  for (const key of Object.keys(FILE_FILTERS) as FilterKey[]) {
    const raw = params.get(FILE_FILTERS[key].param);
    const value = raw === null ? undefined : parseValue(key, raw);
    if (value !== undefined) filters[key] = value;
  }
  return { filters: filters as FileFilters, sort: parseSort(params.get('sort') ?? DEFAULT_SORT) };
}

/**
 * The month a date-sorted list starts at ('YYYY-MM'), after a jump on the timeline: kept in the URL, so Back
 * from a file returns to the same list. Not a filter: any change of the filters or the sort drops it.
 */
export const FROM_PARAM = 'mes';
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month in a URL's search parameters, if it is one. */
export function monthFromParams(params: URLSearchParams): string | null {
  const month = params.get(FROM_PARAM);
  return month && MONTH.test(month) ? month : null;
}
