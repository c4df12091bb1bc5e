// 'Descargar ZIP' of a selection on the private files screen, streamed (see _shared/zip.ts).
// The app submits a hidden form (POST, application/x-www-form-urlencoded) so the browser saves the
// response as a download without holding it in memory; a form cannot send an Authorization header, so
// the session's access token comes as the `access_token` field and is checked here. `selection` is JSON:
// {"fileIds": [...]} or {"filter": {...}} (the files screen's filters, as the bulk actions take them).
// What goes in is what the caller may read (zip_file_entries runs under their RLS); only then does the
// service role sign the objects' URLs.
import { createClient } from '@supabase/supabase-js';
import { HttpError, json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { zipResponse, type ZipEntry } from '../_shared/zip.ts';

const PAGE = 1000;

interface Selection {
  fileIds?: string[];
  filter?: Record<string, unknown>;
}

function parseSelection(raw: string | null): Selection {
  try {
    const value = JSON.parse(raw ?? '') as Selection;
    if (Array.isArray(value.fileIds) && value.fileIds.every((id) => typeof id === 'string'))
      return { fileIds: value.fileIds };
    if (value.filter && typeof value.filter === 'object') return { filter: value.filter };
  } catch {
    // Falls through to the refusal below.
  }
  throw new HttpError(400, 'INVALID_SELECTION', 'La selección de archivos no es válida.');
}

serve(async (request) => {
  if (request.method !== 'POST') return json(405, { code: 'METHOD', message: 'Usa POST.' });
  // Not a form at all (another content type, a broken body): the same refusal as a bad selection.
  const form = await request.formData().catch(() => {
    throw new HttpError(400, 'INVALID_SELECTION', 'La selección de archivos no es válida.');
  });
  const token = form.get('access_token');
  if (typeof token !== 'string' || token === '') {
    return json(401, { code: 'NOT_SIGNED_IN', message: 'Inicia sesión para descargar.' });
  }
  const selection = parseSelection(form.get('selection') as string | null);
  const caller = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_ANON_KEY')!, {
    global: { headers: { Authorization: `Bearer ${token}` } },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data: user, error: userError } = await caller.auth.getUser(token);
  if (userError || !user.user) return json(401, { code: 'NOT_SIGNED_IN', message: 'Inicia sesión para descargar.' });

  const entries: ZipEntry[] = [];
  for (let after: string | null = null; ;) {
    const { data, error } = await caller.rpc('zip_file_entries', {
      p_file_ids: selection.fileIds ?? null,
      p_filter: selection.filter ?? null,
      p_after: after,
      p_limit: PAGE,
    });
    if (error) throw error;
    const rows = data as Array<ZipEntry & { id: string }>;
    entries.push(...rows);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
  }
  if (entries.length === 0) return json(404, { code: 'NOT_FOUND', message: 'No hay archivos que descargar.' });
  const today = new Date().toISOString().slice(0, 10);
  return zipResponse(serviceClient(), entries, `mediateca-${today}.zip`);
});
