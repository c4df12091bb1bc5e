import { env } from '../../../config/env.ts';
import { MEDIA_VARIANTS, publicMediaQuery } from '../../../lib/media/variants.ts';

const functions = `${env.VITE_SUPABASE_URL.replace(/\/$/, '')}/functions/v1`;
const base = `${functions}/public-media`;

/**
 * Addresses served by the public-media function: it redirects to a short-lived signed URL only while the
 * file is published, so the private media bucket is never opened to anonymous visitors.
 */
export const publicMediaUrl = {
  original: (fileId: string) => `${base}/${fileId}`,
  thumbnail: (fileId: string) => `${base}/${fileId}${publicMediaQuery(MEDIA_VARIANTS.publicCard)}`,
  preview: (fileId: string) => `${base}/${fileId}${publicMediaQuery(MEDIA_VARIANTS.preview)}`,
  large: (fileId: string) => `${base}/${fileId}${publicMediaQuery(MEDIA_VARIANTS.large)}`,
};

/** 'Descargar todo (ZIP)': the collection-zip function lists a public collection's published originals. */
export const collectionZipUrl = (collectionId: string) => `${functions}/collection-zip/${collectionId}`;
