// The bytes behind a shared link ({site}/s/{token}): the media bucket stays private, and this answers with a
// short-lived signed URL only after the database (share_link_media) says the link is active, the grant (for a
// link with a password) belongs to it, the file is one it shows, and, for an original, that it allows
// downloads. One RPC and one signature per request; nothing is cached, so a revoked link stops here at once.
// GET /share-link-media/{token}/{fileId}?size=WxH[&fit=contain][&grant=G]  → a render (≤ 2048 px)
// GET /share-link-media/{token}/{fileId}?original=1[&grant=G]              → the original (302)
// GET /share-link-media/{token}/{fileId}?original=1&json=1[&grant=G]       → {url} (the page's ZIP fetches it)
import { corsHeaders, json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { SIGNED_URL_SECONDS, THUMBNAIL_SIZES, sizeLabel } from '../_shared/media-variants.ts';

const UNAVAILABLE = { code: 'LINK_UNAVAILABLE', message: 'Este enlace ha caducado o ya no está disponible' };

serve(async (request) => {
  const url = new URL(request.url);
  const [, , token = '', fileId = ''] = url.pathname.split('/');
  const size = url.searchParams.get('size');
  const original = url.searchParams.get('original') === '1';
  const thumbnail = size ? THUMBNAIL_SIZES.find((s) => sizeLabel(s) === size) : undefined;
  const resize = url.searchParams.get('fit') === 'contain' ? 'contain' : 'cover';
  if (!original && !thumbnail) return json(400, { code: 'INVALID_SIZE', message: 'Tamaño de miniatura no válido.' });
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(token) || !/^[0-9a-f-]{36}$/i.test(fileId)) return json(404, UNAVAILABLE);

  const admin = serviceClient();
  const { data, error } = await admin.rpc('share_link_media', {
    p_token: token,
    p_grant: url.searchParams.get('grant'),
    p_file_id: fileId,
    p_original: original,
  });
  if (error) throw error;
  const answer = data as { status: string; objectPath?: string; fileName?: string; isImage?: boolean };
  if (answer.status === 'download_not_allowed') {
    return json(403, { code: 'DOWNLOAD_NOT_ALLOWED', message: 'Este enlace no permite descargar los originales.' });
  }
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
