import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { MEDIA_VARIANTS, SIGNED_URL_SECONDS } from '../../../lib/media/variants.ts';
import { trashKeys } from './keys.ts';

/** The private bucket deleted files' objects are moved to (supabase/migrations/…_storage.sql). */
const TRASH_BUCKET = 'trash';
const SIGNED_FOR_SECONDS = SIGNED_URL_SECONDS.app;

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

export const trashThumbnailQueryOptions = (objectPath: string, picture: TrashPicture = 'trashPhoto') =>
  queryOptions({
    queryKey: trashKeys.thumbnail(objectPath, picture),
    queryFn: () => getTrashThumbnailUrl(objectPath, picture),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
    // Right after a delete the object may still be on its way to the trash (a server job moves it).
    retry: 3,
  });
