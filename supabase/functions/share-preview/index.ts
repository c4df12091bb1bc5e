// Link previews for shared links. Chat apps and social sites fetch `{site}/file/{id}` without running
// JavaScript, so the SPA cannot give them a title or picture. This answers them with a tiny HTML page of
// Open Graph tags (title, description, image from public-media) that also sends people on to the real page.
// Chosen over server-rendering the SPA: the site stays static files; the host routes only link-preview
// crawlers (by user agent) of /file/* and /collection/* here, and everyone else gets the SPA as today.
// Reads go through get_public_file/get_public_collection as anon, so Postgres decides what is public.
// GET /share-preview/file/{id}   GET /share-preview/collection/{id}
import { createClient } from '@supabase/supabase-js';
import { serve } from '../_shared/http.ts';
import { deadlineFetch } from '../_shared/deadline.ts';
import { MEDIA_VARIANTS, publicMediaQuery } from '../_shared/media-variants.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface PublicFile {
  id: string;
  nameEs: string;
  descriptionEs: string;
  isImage: boolean;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(status: number, meta: { title: string; description: string; url: string; image?: string }) {
  const tags = [
    ['og:type', 'website'],
    ['og:site_name', 'Mediateca'],
    ['og:title', meta.title],
    ['og:description', meta.description],
    ['og:url', meta.url],
    ...(meta.image ? [['og:image', meta.image]] : []),
  ]
    .map(([property, content]) => `<meta property="${property}" content="${escapeHtml(content!)}">`)
    .join('\n');
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8">
<title>${escapeHtml(meta.title)}</title>
<meta name="description" content="${escapeHtml(meta.description)}">
${tags}
<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">
<link rel="canonical" href="${escapeHtml(meta.url)}">
<meta http-equiv="refresh" content="0; url=${escapeHtml(meta.url)}">
</head><body><p><a href="${escapeHtml(meta.url)}">${escapeHtml(meta.title)}</a></p></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
}

const summary = (text: string) => (text.length > 200 ? `${text.slice(0, 197)}…` : text);

serve(async (request) => {
  const [, , kind = '', id = ''] = new URL(request.url).pathname.split('/');
  const supabaseUrl = Deno.env.get('SUPABASE_URL')!;
  const site = (Deno.env.get('PUBLIC_SITE_URL') ?? Deno.env.get('SITE_URL') ?? '').replace(/\/$/, '');
  const media = (fileId: string) =>
    `${supabaseUrl}/functions/v1/public-media/${fileId}${publicMediaQuery(MEDIA_VARIANTS.preview)}`;
  const notAvailable = () =>
    page(404, {
      title: 'Mediateca',
      description: kind === 'collection' ? 'Esta colección no está disponible' : 'Este archivo no está disponible',
      url: `${site}/${kind === 'collection' ? 'collection' : 'file'}/${encodeURIComponent(id)}`,
    });
  if (!UUID.test(id) || (kind !== 'file' && kind !== 'collection')) return notAvailable();

  const anon = createClient(supabaseUrl, Deno.env.get('SUPABASE_ANON_KEY')!, {
    global: { fetch: deadlineFetch },
    auth: { persistSession: false },
  });
  if (kind === 'file') {
    const { data, error } = await anon.rpc('get_public_file', { p_file_id: id });
    if (error) throw error;
    const file = data as PublicFile | null;
    if (!file) return notAvailable();
    return page(200, {
      title: file.nameEs,
      description: summary(file.descriptionEs || 'Archivo compartido desde la Mediateca'),
      url: `${site}/file/${id}`,
      image: file.isImage ? media(id) : undefined,
    });
  }
  const { data, error } = await anon.rpc('get_public_collection', { p_collection_id: id });
  if (error) throw error;
  const collection = data as { name: string; files: PublicFile[] } | null;
  if (!collection) return notAvailable();
  const cover = collection.files.find((file) => file.isImage);
  const count = collection.files.length;
  return page(200, {
    title: collection.name,
    description: `Colección compartida: ${count} ${count === 1 ? 'archivo' : 'archivos'}`,
    url: `${site}/collection/${id}`,
    image: cover ? media(cover.id) : undefined,
  });
});
