import { deployment } from '../../config/deployment.ts';
import type { TusOpts } from '@uppy/tus';
import { env } from '../../config/env.ts';
import { supabase } from '../supabase.ts';

/** Supabase Storage expects 6 MiB TUS chunks. */
export const CHUNK_SIZE = 6 * 1024 * 1024;

export type UploadMeta = {
  bucketName: string;
  objectName: string;
  contentType: string;
  cacheControl: string;
  originalName: string;
  /** The file's name as the person wrote it, without extension: the record's first titles. */
  title: string;
};

/** @uppy/tus options for Supabase Storage's resumable endpoint, shared by every upload in the app. */
export function supabaseTusOptions(): TusOpts<UploadMeta, Record<string, never>> {
  return {
    endpoint: `${env.VITE_SUPABASE_URL}/storage/v1/upload/resumable`,
    chunkSize: CHUNK_SIZE,
    limit: 1,
    retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
    removeFingerprintOnSuccess: true,
    allowedMetaFields: ['bucketName', 'objectName', 'contentType', 'cacheControl'],
    headers: { apikey: env.VITE_SUPABASE_ANON_KEY },
    // A fresh token for every request: a 1 GB upload outlives an access token.
    async onBeforeRequest(request) {
      const { data } = await supabase.auth.getSession();
      request.setHeader('authorization', `Bearer ${data.session?.access_token ?? env.VITE_SUPABASE_ANON_KEY}`);
      request.setHeader('x-upsert', 'false');
    },
  };
}

/** The object a TUS upload URL points at: Supabase encodes bucket/object/version in its last segment. */
export function objectPathFromUploadUrl(uploadUrl: string): string | null {
  const id = uploadUrl.split('/').pop() ?? '';
  try {
    const decoded = atob(id.replaceAll('-', '+').replaceAll('_', '/'));
    const parts = new TextDecoder().decode(Uint8Array.from(decoded, (c) => c.charCodeAt(0))).split('/');
    if (parts.length < 4 || parts[0] !== deployment.storage.mediaBucket) return null;
    return parts.slice(1, -1).join('/');
  } catch {
    return null;
  }
}
