import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { deployment } from '../../../config/deployment.ts';
import { MEDIA_VARIANTS, SIGNED_URL_SECONDS } from '../../../../supabase/functions/_shared/media-variants.ts';

/** The pictures of a file this feature shows (see supabase/functions/_shared/media-variants.ts), or its original ('download'). */
export type MediaVariant = 'thumbnail' | 'page' | 'preview' | 'large' | 'download';

const SIGNED_FOR_SECONDS = SIGNED_URL_SECONDS.app;

/**
 * A signed URL that downloads as `name`, byte for byte. storage-js runs encodeURI over the signed URL after
 * adding `download=<name>` (already percent-encoded), so the name reached Storage encoded twice and
 * 'Señal_ñandú #3 & co.jpg' saved as 'Se%C3%B1al_%C3%B1and%C3%BA %233 %26 co.jpg'. The parameter is added
 * here instead, encoded once.
 */
export function withDownloadName(signedUrl: string, name: string): string {
  return `${signedUrl}${signedUrl.includes('?') ? '&' : '?'}download=${encodeURIComponent(name)}`;
}

/** A signed URL for one object of the private media bucket, resized through Storage image transformations. */
export async function getMediaUrl(objectPath: string, variant: MediaVariant, downloadName?: string): Promise<string> {
  const bucket = supabase.storage.from(deployment.storage.mediaBucket);
  if (variant === 'download') {
    const { data, error } = await bucket.createSignedUrl(objectPath, SIGNED_FOR_SECONDS);
    if (error) throw error;
    return withDownloadName(data.signedUrl, downloadName ?? objectPath.split('/').at(-1)!);
  }
  const { width, height, fit } = MEDIA_VARIANTS[variant];
  const { data, error } = await bucket.createSignedUrl(objectPath, SIGNED_FOR_SECONDS, {
    transform: { width, height, resize: fit },
  });
  if (error) throw error;
  return data.signedUrl;
}

/**
 * Signed URLs are per object (a replaced file has a new object path), not per file, and live outside
 * `fileKeys.all`: refreshing the files' data does not re-sign every thumbnail on the screen.
 */
const mediaUrlKey = (objectPath: string, variant: MediaVariant) => ['media-url', objectPath, variant] as const;

/** Every signed URL of one object, whatever its size (to forget them when the object leaves the library). */
export const mediaUrlsKey = (objectPath: string) => ['media-url', objectPath] as const;

/** Cached until a minute before the signature expires. */
export const mediaUrlQuery = (objectPath: string, variant: MediaVariant, downloadName?: string) =>
  queryOptions({
    queryKey: mediaUrlKey(objectPath, variant),
    queryFn: () => getMediaUrl(objectPath, variant, downloadName),
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
    gcTime: (SIGNED_FOR_SECONDS - 60) * 1000,
  });
