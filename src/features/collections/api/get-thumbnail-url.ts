import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { deployment } from '../../../config/deployment.ts';
import { MEDIA_VARIANTS, SIGNED_URL_SECONDS } from '../../../../supabase/functions/_shared/media-variants.ts';

const SIGNED_FOR_SECONDS = SIGNED_URL_SECONDS.app;

/** A signed thumbnail for a collection's file card, of a media object the signed-in admin may read. */
export async function getThumbnailUrl(objectPath: string) {
  const { width, height, fit } = MEDIA_VARIANTS.collectionCard;
  const { data, error } = await supabase.storage
    .from(deployment.storage.mediaBucket)
    .createSignedUrl(objectPath, SIGNED_FOR_SECONDS, { transform: { width, height, resize: fit } });
  if (error) throw error;
  return data.signedUrl;
}

export const thumbnailUrlQueryOptions = (objectPath: string, version: string) =>
  queryOptions({
    queryKey: ['thumbnail', objectPath, version],
    queryFn: () => getThumbnailUrl(objectPath),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
  });
