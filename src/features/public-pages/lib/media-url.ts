import { env } from '../../../config/env.ts';
import {
  MEDIA_VARIANTS,
  publicMediaQuery,
  type MediaVariantName,
} from '../../../../supabase/functions/_shared/media-variants.ts';

const functions = `${env.VITE_SUPABASE_URL.replace(/\/$/, '')}/functions/v1`;

/**
 * A visitor page's pictures and originals of a file, as a media function serves them under `base`: its
 * renders take public-media's size query, an original `originalQuery`, and every address ends with `proof`.
 */
function mediaUrls(base: string, originalQuery: string, proof: string) {
  const render = (fileId: string, variant: MediaVariantName) =>
    `${base}/${fileId}${publicMediaQuery(MEDIA_VARIANTS[variant])}${proof}`;
  return {
    /** A card of a grid. */
    thumbnail: (fileId: string) => render(fileId, 'publicCard'),
    preview: (fileId: string) => render(fileId, 'preview'),
    large: (fileId: string) => render(fileId, 'large'),
    original: (fileId: string) => `${base}/${fileId}${originalQuery}${proof}`,
  };
}
export type MediaUrls = ReturnType<typeof mediaUrls>;

/**
 * Addresses served by the public-media function: it redirects to a short-lived signed URL only while the
 * file is published, so the private media bucket is never opened to anonymous visitors.
 */
export const publicMediaUrl: MediaUrls = mediaUrls(`${functions}/public-media`, '', '');

/**
 * Addresses served by the share-link-media function, which asks the database on every request whether the
 * link is still active, the grant is this link's and the file is one it shows, then redirects to a signed URL.
 */
export const shareMediaUrls = (token: string, grant: string | null): MediaUrls =>
  mediaUrls(
    `${functions}/share-link-media/${token}`,
    '?original=1',
    grant ? `&grant=${encodeURIComponent(grant)}` : '',
  );

/** 'Descargar todo (ZIP)' of a public collection: the collection-zip function lists its published originals. */
export const collectionZipUrl = (collectionId: string) => `${functions}/collection-zip/${collectionId}`;

/** 'Descargar todo (ZIP)' of a shared link: share-link-media lists the originals of the files a page names. */
export const shareLinkZipUrl = (token: string) => `${functions}/share-link-media/${token}/zip`;
