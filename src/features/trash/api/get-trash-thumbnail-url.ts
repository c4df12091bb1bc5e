import { queryOptions } from '@tanstack/react-query';
import { storage } from '../../../lib/supabase.ts';
import { isWorthRetrying } from '../../../lib/errors.ts';
import { trashKeys } from './keys.ts';

/** The private bucket deleted files' objects are moved to (supabase/migrations/…_storage.sql). */
const TRASH_BUCKET = 'trash';
const SIGNED_FOR_SECONDS = 3600;
/** How long the server's trash job may take to move a just-deleted file's objects into the trash bucket. */
const MOVING_FOR_MS = 60_000;
const MOVE_CHECK_EVERY_MS = 3000;

/**
 * A signed thumbnail of a trashed object (admins may read the trash bucket): a photo cropped to fill, a
 * document's page whole (`contain`).
 */
export async function getTrashThumbnailUrl(objectPath: string, resize: 'cover' | 'contain' = 'cover') {
  const { data, error } = await (
    await storage()
  )
    .from(TRASH_BUCKET)
    .createSignedUrl(objectPath, SIGNED_FOR_SECONDS, { transform: { width: 160, height: 120, resize } });
  if (error) throw error;
  return data.signedUrl;
}

/**
 * A refusal (the object is not in the trash bucket) is asked again only while the file was deleted moments
 * ago, when its object may still be on its way there (a server job moves it); an older one answers the same
 * every time, and a lost connection is tried once more as anywhere in the app.
 */
export const trashThumbnailQueryOptions = (
  objectPath: string,
  resize: 'cover' | 'contain' = 'cover',
  deletedAt?: string,
) =>
  queryOptions({
    queryKey: trashKeys.thumbnail(objectPath, resize),
    queryFn: () => getTrashThumbnailUrl(objectPath, resize),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
    retry: (failures, error) =>
      isWorthRetrying(error)
        ? failures < 1
        : deletedAt !== undefined && Date.now() - Date.parse(deletedAt) < MOVING_FOR_MS && failures < 5,
    retryDelay: MOVE_CHECK_EVERY_MS,
  });
