// The bytes behind a shared link ({site}/s/{token}): the media bucket stays private, and this answers with a
// short-lived signed URL only after the database (share_link_media) says the link is active, the grant (for a
// link with a password) belongs to it, the file is one it shows, and, for an original, that it allows
// downloads. One RPC and one signature per render or original; nothing is cached, so a revoked link stops here
// at once. A page of the link's ZIP is one RPC per file it names and one batch signature, its URLs lasting as
// long as any ZIP entry's (the browser reaches them one by one), so a revoked link stops at its next page.
// GET /share-link-media/{token}/{fileId}?size=WxH[&fit=contain][&grant=G]  → a render (≤ 2048 px)
// GET /share-link-media/{token}/{fileId}?original=1[&grant=G]              → the original (302)
// GET /share-link-media/{token}/{fileId}?original=1&json=1[&grant=G]       → {url, fileName}
// POST /share-link-media/{token}/zip {grant?, fileIds}                      → {entries} (a page of the ZIP)
import type { SupabaseClient } from '@supabase/supabase-js';
import { corsHeaders, json, readJson, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { SIGNED_URL_SECONDS, THUMBNAIL_SIZES, sizeLabel } from '../_shared/media-variants.ts';
import { isUuid, SHARE_LINK_ZIP_PAGE, signedPage, type ZipSource } from '../_shared/zip.ts';

const UNAVAILABLE = { code: 'LINK_UNAVAILABLE', message: 'Este enlace ha caducado o ya no está disponible' };
const NO_DOWNLOADS = { code: 'DOWNLOAD_NOT_ALLOWED', message: 'Este enlace no permite descargar los originales.' };
const TOKEN = /^[A-Za-z0-9_-]{16,100}$/;
/** share_link_media calls of one ZIP page in flight at once: a page stays well under a second of waiting. */
const PARALLEL_CHECKS = 5;

interface MediaAnswer {
  status: string;
  objectPath?: string;
  fileName?: string;
  isImage?: boolean;
}

const askDatabase = async (
  admin: SupabaseClient,
  token: string,
  grant: string | null,
  fileId: string,
  original: boolean,
) => {
  const { data, error } = await admin.rpc('share_link_media', {
    p_token: token,
    p_grant: grant,
    p_file_id: fileId,
    p_original: original,
  });
  if (error) throw error;
  return data as MediaAnswer;
};

/**
 * One page of the link's 'Descargar todo (ZIP)', for the browser that writes the archive (see _shared/zip.ts).
 * The page names the files it wants (the visitor's page already lists them all); each is asked of the
 * database as a single original would be, so the link's rules hold for every entry and each counts as one
 * download. Files the link no longer shows are left out; a link that shows none of them is unavailable.
 */
async function zipPage(request: Request, token: string): Promise<Response> {
  const body = await readJson(request);
  const grant = typeof body.grant === 'string' && body.grant !== '' ? body.grant : null;
  const fileIds = Array.isArray(body.fileIds) ? [...new Set(body.fileIds)] : [];
  if (
    fileIds.length === 0 ||
    fileIds.length > SHARE_LINK_ZIP_PAGE ||
    !fileIds.every((id): id is string => typeof id === 'string' && isUuid(id))
  ) {
    return json(400, { code: 'INVALID_INPUT', message: 'La petición no es válida.' });
  }
  if (!TOKEN.test(token)) return json(404, UNAVAILABLE);
  const admin = serviceClient();
  const answers = new Map<string, MediaAnswer>();
  let next = 0;
  const check = async () => {
    while (next < fileIds.length) {
      const fileId = fileIds[next++]!;
      answers.set(fileId, await askDatabase(admin, token, grant, fileId, true));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, fileIds.length) }, check));
  if ([...answers.values()].some((answer) => answer.status === 'download_not_allowed')) return json(403, NO_DOWNLOADS);
  const allowed = fileIds.filter((id) => answers.get(id)?.status === 'ok');
  if (allowed.length === 0) return json(404, UNAVAILABLE);

  const { data, error } = await admin
    .from('files')
    .select('id, object_path, original_file_name, size, uploaded_on')
    .in('id', allowed);
  if (error) throw error;
  const byId = new Map((data as ZipSource[]).map((source) => [source.id, source]));
  const sources = allowed.flatMap((id) => byId.get(id) ?? []);
  const { entries } = await signedPage(admin, sources, SHARE_LINK_ZIP_PAGE);
  return json(200, { entries });
}

serve(async (request) => {
  const url = new URL(request.url);
  const [, , token = '', fileId = ''] = url.pathname.split('/');
  if (fileId === 'zip' && request.method === 'POST') return zipPage(request, token);
  const size = url.searchParams.get('size');
  const original = url.searchParams.get('original') === '1';
  const thumbnail = size ? THUMBNAIL_SIZES.find((s) => sizeLabel(s) === size) : undefined;
  const resize = url.searchParams.get('fit') === 'contain' ? 'contain' : 'cover';
  if (!original && !thumbnail) return json(400, { code: 'INVALID_SIZE', message: 'Tamaño de miniatura no válido.' });
  if (!TOKEN.test(token) || !/^[0-9a-f-]{36}$/i.test(fileId)) return json(404, UNAVAILABLE);

  const admin = serviceClient();
  const answer = await askDatabase(admin, token, url.searchParams.get('grant'), fileId, original);
  if (answer.status === 'download_not_allowed') return json(403, NO_DOWNLOADS);
  if (answer.status !== 'ok' || !answer.objectPath || (thumbnail && !answer.isImage)) return json(404, UNAVAILABLE);

  const signed = await admin.storage
    .from('media')
    .createSignedUrl(
      answer.objectPath,
      SIGNED_URL_SECONDS.shareLink,
      thumbnail ? { transform: { width: thumbnail[0], height: thumbnail[1], resize } } : undefined,
    );
  if (signed.error) return json(404, UNAVAILABLE);
  // The download name added here, encoded once (see public-media for why not storage-js's `download`).
  const location = original
    ? `${signed.data.signedUrl}&download=${encodeURIComponent(answer.fileName ?? 'archivo')}`
    : signed.data.signedUrl;
  if (url.searchParams.get('json') === '1') return json(200, { url: location, fileName: answer.fileName });
  return new Response(null, {
    status: 302,
    headers: { ...corsHeaders, Location: location, 'Cache-Control': 'no-store' },
  });
});
