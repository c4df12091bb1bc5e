import { env } from '../../../config/env.ts';

const base = `${env.VITE_SUPABASE_URL.replace(/\/$/, '')}/functions/v1/public-media`;

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
