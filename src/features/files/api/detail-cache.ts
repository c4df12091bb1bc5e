import type { Query, QueryClient } from '@tanstack/react-query';
import type { FileDetail } from './get-file-detail.ts';
import { fileKeys } from './keys.ts';

/**
 * What one Realtime change says the file's detail must now show. A detail that already shows it (the
 * person's own save, refetched when the save answered) is not asked for again: a save that touched the row,
 * three tag links and a collection used to refetch the detail and its history five times.
 */
export type DetailExpectation =
  | { kind: 'row'; updatedAt: string | null }
  | { kind: 'link'; column: 'tag_id' | 'collection_id'; id: string | null; linked: boolean }
  | { kind: 'gone' };

export function detailReflects(detail: FileDetail, expectation: DetailExpectation): boolean {
  switch (expectation.kind) {
    case 'row':
      return expectation.updatedAt !== null && Date.parse(detail.updated_at) === Date.parse(expectation.updatedAt);
    case 'link': {
      if (expectation.id === null) return false;
      const links: Array<Record<string, string>> =
        expectation.column === 'tag_id' ? detail.file_tags : detail.collection_files;
      return links.some((link) => link[expectation.column] === expectation.id) === expectation.linked;
    }
    case 'gone':
      return false;
  }
}

/** Files this tab has just deleted: their Realtime echo must not ask for them again (HTTP 406). */
const deletedHere = new Set<string>();
export function forgetDeletedFiles(ids: readonly string[]) {
  for (const id of ids) deletedHere.add(id);
}

/**
 * Refreshes the detail and history of one file after a burst of changes to it, once, and only if the cached
 * detail does not show them all yet. A detail being fetched is left to land first (its request may have
 * started after the change was committed) and checked then, instead of being cancelled and started again.
 */
export function refreshFileDetail(queryClient: QueryClient, fileId: string, expectations: DetailExpectation[]) {
  const detailKey = fileKeys.detail(fileId);
  const cache = queryClient.getQueryCache();
  if (deletedHere.has(fileId) && expectations.some((expectation) => expectation.kind === 'gone')) {
    deletedHere.delete(fileId);
    queryClient.removeQueries({ queryKey: detailKey, exact: true, type: 'inactive' });
    return;
  }
  const refresh = () => {
    const detail = queryClient.getQueryData<FileDetail>(detailKey);
    if (detail && expectations.every((expectation) => detailReflects(detail, expectation))) return;
    void queryClient.invalidateQueries({ queryKey: detailKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: fileKeys.history(fileId), exact: true });
  };
  const query: Query | undefined = cache.find({ queryKey: detailKey, exact: true });
  if (query?.state.fetchStatus !== 'fetching') return refresh();
  const unsubscribe = cache.subscribe((event) => {
    if (event.query !== query) return;
    const landed = event.type === 'updated' && (event.action.type === 'success' || event.action.type === 'error');
    if (!landed && event.type !== 'removed') return;
    unsubscribe();
    if (landed) refresh();
  });
}
