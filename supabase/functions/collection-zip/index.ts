// 'Descargar todo (ZIP)' of a public collection: its published originals in one ZIP, streamed. client-zip
// pulls one file at a time from the generator below and passes its bytes through as they arrive from
// Storage (stored, not recompressed: photos and PDFs are compressed already), so memory stays flat however
// large the collection is. Anonymous like the public page: the function itself refuses a private or
// unknown collection, and reads only published files.
// GET /collection-zip/{collectionId}
import { downloadZip } from 'client-zip';
import { json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';

const SIGNED_URL_SECONDS = 600;
const PAGE = 1000;
const NOT_AVAILABLE = { code: 'NOT_FOUND', message: 'Esta colección no está disponible.' };

interface ZipFile {
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
    .replace(/["\\]/g, '') || 'coleccion';

serve(async (request) => {
  const collectionId = new URL(request.url).pathname.split('/')[2] ?? '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(collectionId)) {
    return json(404, NOT_AVAILABLE);
  }
  const admin = serviceClient();
  const { data: collection, error } = await admin
    .from('collections')
    .select('name')
    .eq('id', collectionId)
    .eq('is_public', true)
    .maybeSingle();
  if (error) throw error;
  if (!collection) return json(404, NOT_AVAILABLE);

  const files: ZipFile[] = [];
  for (let from = 0; ; from += PAGE) {
    const page = await admin
      .from('collection_files')
      .select('files!inner(object_path, original_file_name, size, uploaded_on)')
      .eq('collection_id', collectionId)
      .eq('files.published', true)
      .order('file_id')
      .range(from, from + PAGE - 1);
    if (page.error) throw page.error;
    files.push(...page.data.map((row) => row.files as unknown as ZipFile));
    if (page.data.length < PAGE) break;
  }
  const names = uniqueNames(files.map((file) => file.original_file_name));

  // Each original is asked for only when the archive reaches it, through a short-lived signed URL.
  async function* entries() {
    for (const [index, file] of files.entries()) {
      const signed = await admin.storage.from('media').createSignedUrl(file.object_path, SIGNED_URL_SECONDS);
      if (signed.error) throw signed.error;
      const response = await fetch(signed.data.signedUrl);
      if (!response.ok || !response.body) throw new Error(`media ${file.object_path}: ${response.status}`);
      yield { name: names[index]!, input: response.body, size: file.size, lastModified: new Date(file.uploaded_on) };
    }
  }

  const zip = downloadZip(entries(), {
    metadata: files.map((file, index) => ({ name: names[index]!, size: file.size })),
  });
  const fileName = `${collection.name}.zip`;
  return new Response(zip.body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      ...(zip.headers.get('Content-Length') ? { 'Content-Length': zip.headers.get('Content-Length')! } : {}),
      'Cache-Control': 'no-store',
    },
  });
});
