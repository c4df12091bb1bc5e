import type { FileFilters } from './file-filters.ts';

/** Either explicit ids or "every file the filters match", which the database expands itself. */
export type FileSelection = { kind: 'ids'; ids: string[] } | { kind: 'filtered'; filters: FileFilters };

/** The RPC arguments naming a selection. */
export const selectionArgs = (selection: FileSelection) =>
  selection.kind === 'ids'
    ? { p_file_ids: selection.ids, p_filter: undefined }
    : { p_file_ids: undefined, p_filter: { ...selection.filters } };
