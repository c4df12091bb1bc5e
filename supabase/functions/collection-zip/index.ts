// 'Descargar todo (ZIP)' of a public collection: its published originals in one streamed ZIP (see
// _shared/zip.ts). Anonymous like the public page: the function itself refuses a private or unknown
// collection, and reads only published files.
// GET /collection-zip/{collectionId}
import { json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { zipResponse, type ZipEntry } from '../_shared/zip.ts';

const PAGE = 1000;
const NOT_AVAILABLE = { code: 'NOT_FOUND', message: 'Esta colección no está disponible.' };

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

  const files: ZipEntry[] = [];
  for (let from = 0; ; from += PAGE) {
    const page = await admin
      .from('collection_files')
      .select('files!inner(object_path, original_file_name, size, uploaded_on)')
      .eq('collection_id', collectionId)
      .eq('files.published', true)
      .order('file_id')
      .range(from, from + PAGE - 1);
    if (page.error) throw page.error;
    files.push(...page.data.map((row) => row.files as unknown as ZipEntry));
    if (page.data.length < PAGE) break;
  }
  return zipResponse(admin, files, `${collection.name}.zip`);
});
