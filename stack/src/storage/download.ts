import path from 'node:path';
import type { NodeContext } from '../http/mount.ts';
import { alreadySent } from '../http/mount.ts';
import type { BlobStore } from './blobs.ts';
import { errors } from './errors.ts';
import type { ObjectRow } from './objects.ts';
import { safetyHeaders, servedContentType } from './serving.ts';

/**
 * Serves an object's bytes as storage-api does (ETag, 304, single ranges, `?download`), streamed from the blob
 * store straight to the Node response.
 */
export function sendObject(c: NodeContext, blobs: BlobStore, row: ObjectRow): Response {
  const { incoming: req, outgoing: res } = c.env;
  const meta = row.metadata;
  if (!row.version || !meta) throw errors.noSuchKey();
  const headers: Record<string, string> = {
    'Content-Type': servedContentType(meta.mimetype),
    ...safetyHeaders(meta.mimetype),
    ETag: meta.eTag,
    'Last-Modified': new Date(row.updated_at).toUTCString(),
    'Cache-Control': meta.cacheControl,
    'Accept-Ranges': 'bytes',
    'X-Robots-Tag': 'none',
  };
  const download = c.req.query('download');
  if (download !== undefined) {
    const filename = encodeURIComponent(download || path.basename(row.name));
    headers['Content-Disposition'] = `attachment; filename=${filename}; filename*=UTF-8''${filename}`;
  }
  if (c.req.header('if-none-match') === meta.eTag) {
    res.writeHead(304, headers);
    res.end();
    return alreadySent;
  }
  const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('range') ?? '');
  let status = 200;
  let start = 0;
  let end = meta.size - 1;
  if (range && meta.size > 0) {
    start = range[1] ? Number(range[1]) : Math.max(0, meta.size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), meta.size - 1) : meta.size - 1;
    if (start > end || start >= meta.size) {
      res.writeHead(416, { 'Content-Range': `bytes */${meta.size}` });
      res.end();
      return alreadySent;
    }
    status = 206;
    headers['Content-Range'] = `bytes ${start}-${end}/${meta.size}`;
  }
  headers['Content-Length'] = String(meta.size === 0 ? 0 : end - start + 1);
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || meta.size === 0) {
    res.end();
    return alreadySent;
  }
  const stream = blobs.read(row.version, { start, end });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  return alreadySent;
}
