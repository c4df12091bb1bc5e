import type { InfiniteData } from '@tanstack/react-query';
import type { FileFilters, FilePage, FileRow } from './search-files.ts';

/** A changed file as Realtime sends it: every published column (not the generated is_image). */
export type ChangedFile = Partial<FileRow> & { id: string; search_document?: unknown };

export type ListUpdate = { kind: 'patch'; data: InfiniteData<FilePage> } | { kind: 'refetch' } | { kind: 'none' };

const SEARCHED_COLUMNS = [
  'id',
  'name_es',
  'name_en',
  'description_es',
  'description_en',
  'original_file_name',
] as const;

const isSet = (value: string | undefined) => Boolean(value) && value !== 'all';

/**
 * The columns that decide whether a file belongs in a list with these filters and where it sorts. The
 * extension always counts: the card's thumbnail follows is_image, which Realtime does not send.
 */
function placingColumns(filters: FileFilters, sort: string): ReadonlyArray<keyof FileRow> {
  return [
    'extension',
    ...(filters.query ? SEARCHED_COLUMNS : []),
    ...(isSet(filters.status) ? (['published'] as const) : []),
    ...(isSet(filters.operations) ? (['operations'] as const) : []),
    ...(sort.startsWith('size') ? (['size'] as const) : []),
    ...(sort.startsWith('nameEs') ? (['name_es'] as const) : []),
  ];
}

/**
 * What another person's edit of one file means for one cached page list of the files screen. When the
 * file is on a loaded page and nothing that places it changed (processing finished, a description, a
 * flag the list does not filter on), its row is patched in place: a list scrolled 200 pages deep is not
 * refetched page by page for it. When the edit can move the file into, out of or within the list, or
 * the file is not loaded and could now belong there, the list is refetched. Tag and collection links
 * are other tables; their changes refetch as before.
 */
export function fileListUpdate(
  data: InfiniteData<FilePage>,
  filters: FileFilters,
  sort: string,
  changed: ChangedFile,
): ListUpdate {
  const columns = placingColumns(filters, sort);
  for (const [pageIndex, page] of data.pages.entries()) {
    const fileIndex = page.files.findIndex((file) => file.id === changed.id);
    if (fileIndex === -1) continue;
    const cached = page.files[fileIndex]!;
    if (columns.some((column) => column in changed && changed[column] !== cached[column])) return { kind: 'refetch' };
    const { search_document: _searchDocument, ...values } = changed;
    const files = page.files.with(fileIndex, { ...cached, ...values });
    return { kind: 'patch', data: { ...data, pages: data.pages.with(pageIndex, { ...page, files }) } };
  }
  // Not loaded: the edit may make it match the filters, or (other than by date, which never changes)
  // sort it into the loaded pages.
  const membershipMayChange =
    Boolean(filters.query) || isSet(filters.type) || isSet(filters.status) || isSet(filters.operations);
  return membershipMayChange || !sort.startsWith('uploadedOn') ? { kind: 'refetch' } : { kind: 'none' };
}

/**
 * The loaded pages without these files, or the same object when none of them is loaded. A deleted file's
 * object is on its way to the trash: a card left on screen until the refetch lands would ask Storage for a
 * thumbnail that is no longer there (a 400 per card, each time the grid mounts again).
 */
export function withoutFiles(data: InfiniteData<FilePage>, ids: ReadonlySet<string>): InfiniteData<FilePage> {
  if (!data.pages.some((page) => page.files.some((file) => ids.has(file.id)))) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, files: page.files.filter((f) => !ids.has(f.id)) })) };
}
