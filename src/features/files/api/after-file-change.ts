import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { fileKeys } from './keys.ts';
import { mediaUrlsKey } from './get-media-url.ts';
import { forgetDeletedFiles } from './detail-cache.ts';
import { withoutFiles } from './list-cache.ts';
import type { FilePage } from './search-files.ts';

/** The per-file caches of files that no longer exist: nothing to refetch, the database would answer 406. */
const ofDeletedFile = (queryKey: readonly unknown[], deleted: ReadonlySet<string>) =>
  queryKey[0] === fileKeys.all[0] &&
  ['detail', 'history', 'jobs', 'suggested-tags'].includes(queryKey[1] as string) &&
  deleted.has(queryKey[2] as string);

/**
 * Files that left the library (deleted here or by someone else): out of every loaded list at once, and their
 * signed picture URLs forgotten, so no card and no prefetch asks Storage for an object that is gone.
 */
export function dropDeletedFiles(queryClient: QueryClient, deletedIds: readonly string[]) {
  const deleted = new Set(deletedIds);
  const pictures = new Set<string>();
  for (const [queryKey, data] of queryClient.getQueriesData<InfiniteData<FilePage>>({ queryKey: fileKeys.lists() })) {
    if (!data) continue;
    for (const page of data.pages) {
      for (const file of page.files) {
        if (!deleted.has(file.id)) continue;
        pictures.add(file.object_path);
        if (file.preview_path) pictures.add(file.preview_path);
      }
    }
    const next = withoutFiles(data, deleted);
    if (next !== data) queryClient.setQueryData(queryKey, next);
  }
  // Only the URLs no screen shows any more: removing one a mounted screen still holds (the detail being left
  // after its Borrar) would make that screen sign the moved object again, and Storage refuse it.
  for (const path of pictures) queryClient.removeQueries({ queryKey: mediaUrlsKey(path), type: 'inactive' });
}

/**
 * What every write to files, their tags or collections must do next in the browser: refetch what mentions
 * files (on the bare prefix, so every list, detail and selection summary follows). The public feed, thumbnails
 * and the trash are the server's job: database triggers queue them in the same transaction as the write.
 * Files just deleted are dropped from the cache instead of asked for again.
 */
export async function afterFileChange(queryClient: QueryClient, deletedIds: readonly string[] = []): Promise<void> {
  const deleted = new Set(deletedIds);
  if (deleted.size > 0) {
    forgetDeletedFiles(deletedIds);
    dropDeletedFiles(queryClient, deletedIds);
    const gone = { predicate: (query: { queryKey: readonly unknown[] }) => ofDeletedFile(query.queryKey, deleted) };
    await queryClient.cancelQueries(gone);
    queryClient.removeQueries({ ...gone, type: 'inactive' });
  }
  await queryClient.invalidateQueries({
    queryKey: fileKeys.all,
    predicate: (query) => !ofDeletedFile(query.queryKey, deleted),
  });
}
