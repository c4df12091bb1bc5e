import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { MEDIA_VARIANTS, SIGNED_URL_SECONDS } from '../../../../supabase/functions/_shared/media-variants.ts';
import { isWorthRetrying } from '../../../lib/errors.ts';
import { trashKeys } from './keys.ts';

/** The private bucket deleted files' objects are moved to (supabase/migrations/…_storage.sql). */
const TRASH_BUCKET = 'trash';
const SIGNED_FOR_SECONDS = SIGNED_URL_SECONDS.app;
/** How long the server's trash job may take to move a just-deleted file's objects into the trash bucket. */
const MOVING_FOR_MS = 60_000;
const MOVE_CHECK_EVERY_MS = 3000;

/** A photo cropped to fill its row's box, a document's page whole. */
export type TrashPicture = 'trashPhoto' | 'trashPage';

/** A signed thumbnail of a trashed object (admins may read the trash bucket). */
export async function getTrashThumbnailUrl(objectPath: string, picture: TrashPicture = 'trashPhoto') {
  const { width, height, fit } = MEDIA_VARIANTS[picture];
  const { data, error } = await supabase.storage
    .from(TRASH_BUCKET)
    .createSignedUrl(objectPath, SIGNED_FOR_SECONDS, { transform: { width, height, resize: fit } });
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
  picture: TrashPicture = 'trashPhoto',
  deletedAt?: string,
) =>
  queryOptions({
    queryKey: trashKeys.thumbnail(objectPath, picture),
    queryFn: () => getTrashThumbnailUrl(objectPath, picture),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
    retry: (failures, error) =>
      isWorthRetrying(error)
        ? failures < 1
        : deletedAt !== undefined && Date.now() - Date.parse(deletedAt) < MOVING_FOR_MS && failures < 5,
    retryDelay: MOVE_CHECK_EVERY_MS,
  });
