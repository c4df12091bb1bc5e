// Streams a ZIP of media objects. client-zip pulls one entry at a time from the generator and passes its
// bytes through as they arrive from Storage (stored, not recompressed: photos and PDFs are compressed
// already), so memory stays flat however large the archive is.
import { downloadZip } from 'client-zip';
import type { SupabaseClient } from '@supabase/supabase-js';
import { SIGNED_URL_SECONDS } from './media-variants.ts';

export interface ZipEntry {
  object_path: string;
  original_file_name: string;
  size: number;
  uploaded_on: string;
}

/** Entry names must be unique in a ZIP: 'foto.jpg', 'foto (2).jpg', … */
export function uniqueNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((raw) => {
    const name = raw.replaceAll('/', '_').replaceAll('\\', '_') || 'archivo';
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${extension}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

const asciiFileName = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '') || 'mediateca.zip';

/** A download response of `entries` (already checked readable by the caller), named `fileName`. */
export function zipResponse(admin: SupabaseClient, entries: ZipEntry[], fileName: string): Response {
  const names = uniqueNames(entries.map((entry) => entry.original_file_name));

  // Each original is asked for only when the archive reaches it, through a short-lived signed URL.
  async function* files() {
    for (const [index, entry] of entries.entries()) {
      const signed = await admin.storage.from('media').createSignedUrl(entry.object_path, SIGNED_URL_SECONDS.zipEntry);
      if (signed.error) throw signed.error;
      const response = await fetch(signed.data.signedUrl);
      if (!response.ok || !response.body) throw new Error(`media ${entry.object_path}: ${response.status}`);
      yield { name: names[index]!, input: response.body, size: entry.size, lastModified: new Date(entry.uploaded_on) };
    }
  }

  const zip = downloadZip(files(), {
    metadata: entries.map((entry, index) => ({ name: names[index]!, size: entry.size })),
  });
  const length = zip.headers.get('Content-Length');
  return new Response(zip.body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      ...(length ? { 'Content-Length': length } : {}),
      'Cache-Control': 'no-store',
    },
  });
}
