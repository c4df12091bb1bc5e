import http from 'node:http';

/**
 * A stand-in for the video provider's `videos` endpoint (part=snippet, id, key), so the video-info edge
 * function is tested without the internet. Known ids answer like the real API; "providerDown" fails with 503
 * and "keyRefused" is answered as the real API answers a key it does not accept.
 */
export const FAKE_PROVIDER_KEY = 'fake-provider-key';

const VIDEOS: Record<string, Record<string, { url: string }>> = {
  dQw4w9WgXcQ: {
    high: { url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg' },
    medium: { url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg' },
    standard: { url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/sddefault.jpg' },
  },
  M7lc1UVf_VE: {
    high: { url: 'https://i.ytimg.com/vi/M7lc1UVf_VE/hqdefault.jpg' },
    medium: { url: 'https://i.ytimg.com/vi/M7lc1UVf_VE/mqdefault.jpg' },
  },
  onlyMedium1: { medium: { url: 'https://i.ytimg.com/vi/onlyMedium1/mqdefault.jpg' } },
};

export async function startFakeVideoProvider(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider.local');
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/videos' || url.searchParams.get('part') !== 'snippet')
      return reply(404, { error: 'not found' });
    if (url.searchParams.get('key') !== FAKE_PROVIDER_KEY)
      return reply(400, { error: { message: 'API key not valid' } });
    const id = url.searchParams.get('id') ?? '';
    if (id === 'providerDown') return reply(503, { error: { message: 'backend error' } });
    if (id === 'keyRefused') {
      return reply(400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ reason: 'API_KEY_INVALID' }],
        },
      });
    }
    const thumbnails = VIDEOS[id];
    if (!thumbnails) return reply(200, { kind: 'youtube#videoListResponse', items: [] });
    return reply(200, {
      kind: 'youtube#videoListResponse',
      items: [{ id, snippet: { title: `Vídeo ${id}`, thumbnails } }],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
