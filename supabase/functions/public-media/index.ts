// Public links to the bytes of published files, for the public feed and public pages: the media bucket
// stays private, and this answers with a short-lived signed URL only while the file is public (published, its
// rights not expired: the database decides, at each request, in public_media_object).
// GET /public-media/{fileId}            → the original
// GET /public-media/{fileId}?size=WxH   → one of the six thumbnails (cropped to fill it)
// GET /public-media/{fileId}?size=WxH&fit=contain → the whole image within that box (public file page)
import { json, serve } from '../_shared/http.ts';
import { serviceClient } from '../_shared/auth.ts';
import { SIGNED_URL_SECONDS, THUMBNAIL_FIT, THUMBNAIL_SIZES, sizeLabel } from '../_shared/media-variants.ts';

serve(async (request) => {
  const url = new URL(request.url);
  const fileId = url.pathname.split('/')[2] ?? '';
  const size = url.searchParams.get('size');
  const thumbnail = size ? THUMBNAIL_SIZES.find((s) => sizeLabel(s) === size) : undefined;
  const resize = url.searchParams.get('fit') === 'contain' ? 'contain' : THUMBNAIL_FIT;
  if (size && !thumbnail) return json(400, { code: 'INVALID_SIZE', message: 'Tamaño de miniatura no válido.' });
  if (!/^[0-9a-f-]{36}$/i.test(fileId)) return json(404, { code: 'NOT_FOUND', message: 'El archivo no existe.' });

  const admin = serviceClient();
  const { data: file, error } = await admin
    .rpc('public_media_object', { p_file_id: fileId })
    .maybeSingle<{ object_path: string; is_image: boolean; original_file_name: string }>();
  // A malformed id that passed the pattern ('----…') is not a file either.
  if (error && error.code !== '22P02') throw error;
  if (!file || (thumbnail && !file.is_image)) return json(404, { code: 'NOT_FOUND', message: 'El archivo no existe.' });

  const signed = await admin.storage
    .from('media')
    .createSignedUrl(
      file.object_path,
      SIGNED_URL_SECONDS.publicRedirect,
      thumbnail ? { transform: { width: thumbnail[0], height: thumbnail[1], resize } } : undefined,
    );
  if (signed.error) return json(404, { code: 'NOT_FOUND', message: 'El archivo no existe.' });
  // The download name is added here, encoded once: storage-js's own `download` option runs encodeURI over an
  // already encoded name, and 'Señal_ñandú #3 & co.jpg' saved as 'Se%C3%B1al_%C3%B1and%C3%BA %233 %26 co.jpg'.
  const location = thumbnail
    ? signed.data.signedUrl
    : `${signed.data.signedUrl}&download=${encodeURIComponent(file.original_file_name)}`;
  return new Response(null, {
    status: 302,
    headers: { Location: location, 'Cache-Control': 'private, max-age=60' },
  });
});
