import { env } from '../../../config/env.ts';

const functions = `${env.VITE_SUPABASE_URL.replace(/\/$/, '')}/functions/v1`;
const base = `${functions}/public-media`;

/**
 * Addresses served by the public-media function: it redirects to a short-lived signed URL only while the
 * file is published, so the private media bucket is never opened to anonymous visitors.
 */
export const publicMediaUrl = {
  original: (fileId: string) => `${base}/${fileId}`,
  thumbnail: (fileId: string) => `${base}/${fileId}?size=400x300`,
  preview: (fileId: string) => `${base}/${fileId}?size=1024x768&fit=contain`,
  large: (fileId: string) => `${base}/${fileId}?size=2048x1536&fit=contain`,
};

/** 'Descargar todo (ZIP)': the collection-zip function lists a public collection's published originals. */
export const collectionZipUrl = (collectionId: string) => `${functions}/collection-zip/${collectionId}`;
