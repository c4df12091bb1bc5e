import type { Hono } from 'hono';
import type { Pool } from 'pg';
import type { NodeContext, NodeEnv } from '../http/mount.ts';
import { readJsonObject } from '../http/body.ts';
import type { ProjectConfig } from '../project-config.ts';
import type { ServiceContext } from '../service.ts';
import type { Caller } from './access.ts';
import type { BlobStore } from './blobs.ts';
import { errors } from './errors.ts';
import type { createImageRenderer } from './render.ts';

/** What every Storage route gets: the pool, the blob store, the settings and how to know the caller. */
export interface StorageDeps {
  ctx: ServiceContext;
  pool: Pool;
  blobs: BlobStore;
  config: ProjectConfig['storage'];
  renderer: Awaited<ReturnType<typeof createImageRenderer>>;
  /** The caller's verified JWT; `allowInvalid` routes (downloads) fall back to anon. */
  caller: (c: NodeContext, allowInvalid?: boolean) => Promise<Caller>;
}

export type StorageApp = Hono<NodeEnv>;

/** A file under routes/ registers its one route on the app. */
export type StorageRoute = (app: StorageApp, deps: StorageDeps) => void;

export const MAX_JSON_BODY = 1024 * 1024;

/** A JSON object body of at most 1 MB, refused in storage-api's words. */
export const readJson = (c: NodeContext) =>
  readJsonObject(c.env.incoming, {
    limit: MAX_JSON_BODY,
    tooLarge: () => errors.invalidRequest('Body too large'),
    invalid: () => errors.invalidRequest('Body is not valid JSON'),
  });

/** storage-api's JSON answers carry a charset. */
export const json = (c: NodeContext, body: unknown, status: 200 | 400 | 404 | 413 | 500 | 507 = 200) =>
  c.json(body, status, { 'Content-Type': 'application/json; charset=utf-8' });
