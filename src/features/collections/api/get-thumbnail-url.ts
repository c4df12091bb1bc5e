import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { deployment } from '../../../config/deployment.ts';

const SIGNED_FOR_SECONDS = 3600;

/** A signed 300×225 thumbnail of a media object the signed-in admin may read. */
export async function getThumbnailUrl(objectPath: string) {
  const { data, error } = await supabase.storage
    .from(deployment.storage.mediaBucket)
    .createSignedUrl(objectPath, SIGNED_FOR_SECONDS, { transform: { width: 300, height: 225, resize: 'cover' } });
  if (error) throw error;
  return data.signedUrl;
}

export const thumbnailUrlQueryOptions = (objectPath: string, version: string) =>
  queryOptions({
    queryKey: ['thumbnail', objectPath, version],
    queryFn: () => getThumbnailUrl(objectPath),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
  });
