// Video info for the academy (the video-URL form): takes a pasted URL, finds the video id and asks
// the provider's `videos` endpoint for its title and thumbnail. The API key and the provider's base URL are
// secrets of this function, never sent to the browser.
import { HttpError, json, readJson, serve } from '../_shared/http.ts';
import { requireStaff } from '../_shared/auth.ts';

const ID = /^[A-Za-z0-9_-]{6,20}$/;

/** The `v` query parameter of a watch URL, or the id in youtu.be/<id>, /shorts/<id> and /embed/<id>. */
export function videoIdFrom(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol)) return null;
  const fromQuery = url.searchParams.get('v');
  if (fromQuery && ID.test(fromQuery)) return fromQuery;
  const segments = url.pathname.split('/').filter(Boolean);
  if (url.hostname.endsWith('youtu.be') && segments[0] && ID.test(segments[0])) return segments[0];
  const index = segments.findIndex((s) => s === 'shorts' || s === 'embed' || s === 'live');
  if (index >= 0 && segments[index + 1] && ID.test(segments[index + 1]!)) return segments[index + 1]!;
  return null;
}

interface Thumbnail {
  url: string;
}

/**
 * A missing or refused key is how the project is set up, not a failure of this call: 503 with its own code, so
 * the admin is told where the key is set and can enter the video by hand meanwhile.
 */
const notConfigured = (why: string) =>
  new HttpError(503, 'NOT_CONFIGURED', `${why} Es el secreto VIDEO_PROVIDER_API_KEY de las funciones.`);

/** The provider refuses a key it does not know, has expired or is not allowed to use this API (400 or 403). */
async function refusesTheKey(response: Response): Promise<boolean> {
  if (response.status !== 400 && response.status !== 403) return false;
  const text = await response.text().catch(() => '');
  return /API key|API_KEY_|keyInvalid|keyExpired|accessNotConfigured|SERVICE_DISABLED/i.test(text);
}

serve(async (request) => {
  await requireStaff(request, ['ADMIN']);
  const body = await readJson(request);
  const youtubeUrl = typeof body.url === 'string' ? body.url : '';
  const youtubeId = videoIdFrom(youtubeUrl);
  if (!youtubeId) throw new HttpError(400, 'INVALID_URL', 'El campo no es una URL válida.');

  const key = Deno.env.get('VIDEO_PROVIDER_API_KEY');
  const base = Deno.env.get('VIDEO_PROVIDER_BASE_URL') ?? 'https://www.googleapis.com/youtube/v3';
  if (!key) throw notConfigured('Falta la clave del proveedor de vídeo.');
  const query = new URLSearchParams({ part: 'snippet', id: youtubeId, key });
  let response: Response;
  try {
    response = await fetch(`${base}/videos?${query}`, { signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new HttpError(502, 'PROVIDER_UNAVAILABLE', 'No se pudo contactar con el proveedor de vídeo.');
  }
  if (await refusesTheKey(response)) throw notConfigured('El proveedor de vídeo no acepta la clave configurada.');
  if (!response.ok)
    throw new HttpError(502, 'PROVIDER_UNAVAILABLE', 'El proveedor de vídeo no respondió correctamente.');
  const data = (await response.json()) as {
    items?: Array<{ snippet?: { title?: string; thumbnails?: Record<string, Thumbnail | undefined> } }>;
  };
  const snippet = data.items?.[0]?.snippet;
  if (!snippet) throw new HttpError(404, 'VIDEO_NOT_FOUND', 'No se encontró ningún vídeo con esa URL.');
  const thumbnails = snippet.thumbnails ?? {};
  const thumbnail = thumbnails.standard ?? thumbnails.high ?? thumbnails.medium ?? null;
  return json(200, {
    youtubeId,
    youtubeUrl: `https://www.youtube.com/watch?v=${youtubeId}`,
    title: snippet.title ?? '',
    thumbnailUrl: thumbnail?.url ?? null,
  });
});
