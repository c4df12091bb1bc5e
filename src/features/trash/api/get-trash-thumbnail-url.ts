import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { trashKeys } from './keys.ts';

/** The private bucket deleted files' objects are moved to (supabase/migrations/…_storage.sql). */
const TRASH_BUCKET = 'trash';
const SIGNED_FOR_SECONDS = 3600;

/**
 * A signed thumbnail of a trashed object (admins may read the trash bucket): a photo cropped to fill, a
 * document's page whole (`contain`).
 */
export async function getTrashThumbnailUrl(objectPath: string, resize: 'cover' | 'contain' = 'cover') {
  const { data, error } = await supabase.storage
    .from(TRASH_BUCKET)
    .createSignedUrl(objectPath, SIGNED_FOR_SECONDS, { transform: { width: 160, height: 120, resize } });
  if (error) throw error;
  return data.signedUrl;
}

export const trashThumbnailQueryOptions = (objectPath: string, resize: 'cover' | 'contain' = 'cover') =>
  queryOptions({
    queryKey: trashKeys.thumbnail(objectPath, resize),
    queryFn: () => getTrashThumbnailUrl(objectPath, resize),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
    // Right after a delete the object may still be on its way to the trash (a server job moves it).
    retry: 3,
  });
