// Mediateca's ZIP downloads (src/lib/zip/service-worker-sink.ts): the page builds the archive and hands its
// stream here; the download URL {scope}{id} is answered with that stream as an attachment, so the browser
// saves it to disk as it is written. Nothing is cached and no other request is touched.
const downloads = new Map();

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'zip-download') return;
  if (typeof data.id !== 'string' || !(data.stream instanceof ReadableStream)) return;
  downloads.set(data.id, { fileName: String(data.fileName || 'mediateca.zip'), stream: data.stream });
  event.ports[0]?.postMessage('accepted');
});

const asciiName = (name) =>
  name
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '') || 'mediateca.zip';

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (!url.href.startsWith(self.registration.scope)) return;
  const id = url.href.slice(self.registration.scope.length);
  const download = downloads.get(id);
  if (!download) return;
  downloads.delete(id);
  event.respondWith(
    new Response(download.stream, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${asciiName(download.fileName)}"; filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    }),
  );
});
