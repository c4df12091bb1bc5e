import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sharp, { type FormatEnum } from 'sharp';
import type { ServiceContext } from '../service.ts';
import type { BlobStore } from './blobs.ts';
import { errors, StorageError } from './errors.ts';
import type { ObjectRow } from './objects.ts';

/**
 * Storage image transformations (`/render/image/...`) with sharp, mapped from imgproxy as Supabase uses it:
 * cover crops to fill, contain fits inside without padding, fill ignores
 * the aspect ratio. Results are cached on disk keyed by object version, parameters and output format, so a
 * thumbnail is computed once per version.
 */

export interface Transform {
  width?: number;
  height?: number;
  resize?: 'cover' | 'contain' | 'fill';
  quality?: number;
  format?: 'origin' | 'webp' | 'avif';
}

const MAX_DIMENSION = 2500;

function integerParam(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw errors.invalidRequest(`${name} must be an integer between ${min} and ${max}`);
  }
  return value;
}

export function parseTransformQuery(params: URLSearchParams): Transform {
  const transform: Transform = {};
  const width = integerParam(params, 'width', 1, MAX_DIMENSION);
  const height = integerParam(params, 'height', 1, MAX_DIMENSION);
  const quality = integerParam(params, 'quality', 20, 100);
  if (width !== undefined) transform.width = width;
  if (height !== undefined) transform.height = height;
  if (quality !== undefined) transform.quality = quality;
  const resize = params.get('resize');
  if (resize !== null && resize !== '') {
    if (resize !== 'cover' && resize !== 'contain' && resize !== 'fill') {
      throw errors.invalidRequest('resize must be one of cover, contain, fill');
    }
    transform.resize = resize;
  }
  const format = params.get('format');
  if (format !== null && format !== '') {
    if (format !== 'origin' && format !== 'webp' && format !== 'avif') {
      throw errors.invalidRequest('format must be one of origin, webp, avif');
    }
    transform.format = format;
  }
  return transform;
}

const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;

/** imgproxy's resizing types for storage-api's `resize` (cover → fill, contain → fit, fill → force). */
const RESIZING_TYPE = { cover: 'fill', contain: 'fit', fill: 'force' } as const;

/**
 * The `X-Transformations` header as storage-api writes it (ImgProxy `applyTransformation`): height, width, the
 * imgproxy resizing type whenever a dimension is given, quality, then a format other than origin.
 */
export function transformationsHeader(transform: Transform): string {
  const segments: string[] = [];
  if (transform.height) segments.push(`height:${transform.height}`);
  if (transform.width) segments.push(`width:${transform.width}`);
  if (transform.width || transform.height) segments.push(`resizing_type:${RESIZING_TYPE[transform.resize ?? 'cover']}`);
  if (transform.quality) segments.push(`quality:${transform.quality}`);
  if (transform.format && transform.format !== 'origin') segments.push(`format:${transform.format}`);
  return segments.join(',');
}
const OUTPUT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
};

export async function createImageRenderer(ctx: ServiceContext, blobs: BlobStore) {
  const cacheDir = path.join(ctx.dataDir, 'render-cache');
  await mkdir(cacheDir, { recursive: true });

  const outputFormat = (req: IncomingMessage, transform: Transform, source: string): string => {
    if (transform.format === 'webp' || transform.format === 'avif') return transform.format;
    if (transform.format !== 'origin' && /image\/webp/.test(req.headers.accept ?? '')) return 'webp';
    return source === 'jpg' ? 'jpeg' : source;
  };

  return {
    async render(req: IncomingMessage, res: ServerResponse, row: ObjectRow, transform: Transform): Promise<void> {
      if (!row.version || !row.metadata) throw errors.noSuchKey();
      const source = blobs.pathOf(row.version);
      // Like imgproxy, the bytes decide, not the stored content type: a JPEG uploaded as
      // application/octet-stream is still an image, and a text file labelled image/png is not.
      let sourceFormat: string | undefined;
      try {
        sourceFormat = (await sharp(source).metadata()).format;
      } catch {
        sourceFormat = undefined;
      }
      if (!sourceFormat) {
        throw new StorageError(422, 'InvalidImage', 'Unprocessable Entity', 'Source is not an image');
      }
      const format = outputFormat(req, transform, sourceFormat);
      if (!OUTPUT_TYPES[format])
        throw new StorageError(422, 'InvalidImage', 'Unprocessable Entity', `Cannot render ${format}`);
      const key = createHash('sha256')
        .update(
          JSON.stringify([row.version, transform.width, transform.height, transform.resize, transform.quality, format]),
        )
        .digest('hex');
      const cached = path.join(cacheDir, key.slice(0, 2), key);
      let hit = true;
      let size = await stat(cached)
        .then((s) => s.size)
        .catch(() => -1);
      if (size < 0) {
        hit = false;
        await mkdir(path.dirname(cached), { recursive: true });
        const tmp = `${cached}.${randomUUID()}.tmp`;
        try {
          let pipeline = sharp(source, { failOn: 'error' }).rotate();
          if (transform.width || transform.height) {
            pipeline = pipeline.resize({
              width: transform.width,
              height: transform.height,
              fit: FIT[transform.resize ?? 'cover'],
              position: 'centre',
            });
          }
          const quality = transform.quality ?? (format === 'avif' ? 62 : 80);
          await pipeline.toFormat(format as keyof FormatEnum, { quality }).toFile(tmp);
          await rename(tmp, cached);
        } catch (error) {
          await rm(tmp, { force: true });
          if (error instanceof StorageError) throw error;
          throw new StorageError(
            422,
            'InvalidImage',
            'Unprocessable Entity',
            `Could not transform the image: ${(error as Error).message}`,
          );
        }
        size = (await stat(cached)).size;
      }
      res.writeHead(200, {
        'Content-Type': OUTPUT_TYPES[format]!,
        'X-Content-Type-Options': 'nosniff',
        'Content-Length': String(size),
        'Cache-Control': row.metadata.cacheControl === 'no-cache' ? 'no-cache' : row.metadata.cacheControl,
        ETag: `"${key.slice(0, 32)}"`,
        'X-Transformations': transformationsHeader(transform),
        'X-Cache': hit ? 'HIT' : 'MISS',
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      createReadStream(cached).pipe(res);
    },
  };
}
