import { env } from '../../../config/env.ts';

const base = `${env.VITE_SUPABASE_URL.replace(/\/$/, '')}/functions/v1/share-link-media`;

/**
 * Addresses served by the share-link-media function, which asks the database on every request whether the
 * link is still active, the grant is this link's and the file is one it shows, then redirects to a signed URL.
 */
export function shareMediaUrls(token: string, grant: string | null) {
  const proof = grant ? `&grant=${encodeURIComponent(grant)}` : '';
  const at = (fileId: string, query: string) => `${base}/${token}/${fileId}?${query}${proof}`;
  return {
    thumbnail: (fileId: string) => at(fileId, 'size=400x300'),
    large: (fileId: string) => at(fileId, 'size=2048x1536&fit=contain'),
    original: (fileId: string) => at(fileId, 'original=1'),
    /** {url, fileName} of the original, for the ZIP the page builds. */
    originalJson: (fileId: string) => at(fileId, 'original=1&json=1'),
  };
}
export type ShareMediaUrls = ReturnType<typeof shareMediaUrls>;
