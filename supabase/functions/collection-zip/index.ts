// The entries of a public collection's 'Descargar todo (ZIP)', a page at a time (the browser writes the
// archive itself: see _shared/zip.ts). Anonymous like the public page: the function itself refuses a private
// or unknown collection, and lists only public files (published, rights not expired: the database decides in
// public_collection_zip_entries, at each request).
// GET /collection-zip/{collectionId}?after={cursor}
import { json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { isUuid, parseCursor, signedPage, ZIP_PAGE, type ZipSource } from '../_shared/zip.ts';

const NOT_AVAILABLE = { code: 'NOT_FOUND', message: 'Esta colección no está disponible.' };

serve(async (request) => {
  if (request.method !== 'GET') return json(405, { code: 'METHOD', message: 'Usa GET.' });
  const url = new URL(request.url);
  const collectionId = url.pathname.split('/')[2] ?? '';
  const after = parseCursor(url.searchParams.get('after'));
  if (!isUuid(collectionId) || after === undefined) return json(404, NOT_AVAILABLE);
  const admin = serviceClient();
  const { data: collection, error } = await admin
    .from('collections')
    .select('name')
    .eq('id', collectionId)
    .eq('is_public', true)
    .maybeSingle();
  if (error) throw error;
  if (!collection) return json(404, NOT_AVAILABLE);

  // Keyset by file id (the pair's primary key leads with the collection), never OFFSET.
  const page = await admin.rpc('public_collection_zip_entries', {
    p_collection_id: collectionId,
    p_after: after ?? null,
    p_limit: ZIP_PAGE,
  });
  if (page.error) throw page.error;
  const sources = page.data as ZipSource[];
  return json(200, { name: collection.name, ...(await signedPage(admin, sources, ZIP_PAGE)) });
});
