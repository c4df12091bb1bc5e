const VIDEO_ID = /^[A-Za-z0-9_-]{6,20}$/;

/**
 * The provider's video id in a pasted link: the `v` query parameter of a watch URL, or the id after youtu.be/,
 * /shorts/, /embed/ or /live/. The same reading the video-info function makes, for a video entered by hand.
 */
export function videoIdFromUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const fromQuery = url.searchParams.get('v');
  if (fromQuery && VIDEO_ID.test(fromQuery)) return fromQuery;
  const segments = url.pathname.split('/').filter(Boolean);
  const [first] = segments;
  if (url.hostname.endsWith('youtu.be') && first && VIDEO_ID.test(first)) return first;
  const marker = segments.findIndex((segment) => ['shorts', 'embed', 'live'].includes(segment));
  const afterMarker = marker >= 0 ? segments[marker + 1] : undefined;
  return afterMarker && VIDEO_ID.test(afterMarker) ? afterMarker : null;
}

/** The watch address and the public thumbnail every video has at the provider's image host. */
export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;
export const publicThumbnailUrl = (videoId: string) => `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`;
