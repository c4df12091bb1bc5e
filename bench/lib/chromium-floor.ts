import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Browser } from 'playwright-core';

/**
 * Chromium's own floor for a chunked upload: the same file in the same 6 MiB Blob slices, PUT one after
 * another by a bare XMLHttpRequest from a bare page to a bare loopback server that writes each slice at its
 * offset and fsyncs after the last: no Uppy, no tus, no token, no gateway, no CORS. What the upload screen
 * could reach at best on this machine; what it loses against tus-js-client in Node beyond this is ours.
 */

const PAGE = `<!doctype html><meta charset="utf-8"><input type="file">
<script>
window.putSlices = async (chunk) => {
  const file = document.querySelector('input').files[0];
  const started = performance.now();
  for (let start = 0; start < file.size; start += chunk) {
    const end = Math.min(file.size, start + chunk);
    await new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', '/slice?offset=' + start + (end === file.size ? '&last=1' : ''));
      xhr.onload = () => (xhr.status === 204 ? resolve() : reject(new Error('status ' + xhr.status)));
      xhr.onerror = () => reject(new Error('network error'));
      xhr.send(file.slice(start, end));
    });
  }
  return performance.now() - started;
};
</script>`;

export async function chromiumFloor(browser: Browser, file: string, size: number, chunk: number, scratch: string) {
  const target = path.join(scratch, 'chromium-floor.bin');
  await (await open(target, 'w')).close();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor.local');
    if (req.method !== 'PUT') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    await pipeline(req, createWriteStream(target, { flags: 'r+', start: Number(url.searchParams.get('offset')) }));
    if (url.searchParams.has('last')) {
      const handle = await open(target, 'r+');
      await handle.sync();
      await handle.close();
    }
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const page = await (await browser.newContext()).newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  await page.setInputFiles('input', file);
  return {
    /** MB/s of one pass over the file. */
    async run(): Promise<number> {
      const ms = await page.evaluate(
        (bytes) => (window as unknown as { putSlices: (chunk: number) => Promise<number> }).putSlices(bytes),
        chunk,
      );
      return size / 1e6 / (ms / 1000);
    },
    async close() {
      await page.context().close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(target, { force: true });
    },
  };
}
