// The entries of a 'Descargar ZIP' of a selection on the private files screen, a page at a time (the browser
// writes the archive itself: see _shared/zip.ts). POST {selection, after} with the caller's session:
// `selection` is {"fileIds": [...]} or {"filter": {...}} (the files screen's filters, as the bulk actions take
// them), `after` the cursor of the previous page. What is listed is what the caller may read
// (zip_file_entries runs under their RLS); only then does the service role sign the objects' URLs.
import { HttpError, json, readJson, serve } from '../_shared/http.ts';
import { callerClient, serviceClient } from '../_shared/auth.ts';
import { parseCursor, signedPage, ZIP_PAGE, type ZipSource } from '../_shared/zip.ts';

interface Selection {
  fileIds?: string[];
  filter?: Record<string, unknown>;
}

const INVALID = new HttpError(400, 'INVALID_SELECTION', 'La selección de archivos no es válida.');

function parseSelection(value: unknown): Selection {
  const selection = (value ?? {}) as Selection;
  if (Array.isArray(selection.fileIds) && selection.fileIds.every((id) => typeof id === 'string'))
    return { fileIds: selection.fileIds };
  if (selection.filter && typeof selection.filter === 'object' && !Array.isArray(selection.filter))
    return { filter: selection.filter };
  throw INVALID;
}

serve(async (request) => {
  if (request.method !== 'POST') return json(405, { code: 'METHOD', message: 'Usa POST.' });
  const token = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ?? '';
  const { data: user, error: userError } = await serviceClient().auth.getUser(token);
  if (userError || !user.user) return json(401, { code: 'NOT_SIGNED_IN', message: 'Inicia sesión para descargar.' });

  const body = await readJson(request);
  const selection = parseSelection(body.selection);
  const after = parseCursor(body.after);
  if (after === undefined) throw INVALID;
  const { data, error } = await callerClient(request).rpc('zip_file_entries', {
    p_file_ids: selection.fileIds ?? null,
    p_filter: selection.filter ?? null,
    p_after: after,
    p_limit: ZIP_PAGE,
  });
  if (error) throw error;
  const sources = data as ZipSource[];
  if (after === null && sources.length === 0) {
    return json(404, { code: 'NOT_FOUND', message: 'No hay archivos que descargar.' });
  }
  return json(200, await signedPage(serviceClient(), sources, ZIP_PAGE));
});
