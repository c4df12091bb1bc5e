import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { signJwt } from './jwt.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.json': 'application/json',
};

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

interface SeedObjectsOptions {
  apiUrl: string;
  serviceRoleKey: string;
  jwtSecret: string;
  adminPool: pg.Pool;
  seedObjects: Array<{ bucket: string; objectsPath: string }>;
  log: (message: string) => void;
}

/**
 * What `supabase seed buckets` does for config.toml's objects_path, through the Storage API like any client:
 * every file under the folder becomes an object at its relative path. Then the seeded library's files are
 * post-processed by the product's own function, as an upload would be (dimensions, checksum, thumbnails).
 */
export async function seedBucketObjects(options: SeedObjectsOptions): Promise<void> {
  let uploaded = 0;
  for (const { bucket, objectsPath } of options.seedObjects) {
    for (const file of await filesUnder(objectsPath)) {
      const key = path.relative(objectsPath, file).split(path.sep).join('/');
      const response = await fetch(`${options.apiUrl}/storage/v1/object/${bucket}/${key}`, {
        method: 'POST',
        headers: {
          apikey: options.serviceRoleKey,
          Authorization: `Bearer ${options.serviceRoleKey}`,
          'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
          'x-upsert': 'true',
          'cache-control': 'no-cache',
        },
        body: await readFile(file),
      });
      if (!response.ok)
        throw new Error(`seed object ${bucket}/${key}: HTTP ${response.status} ${await response.text()}`);
      uploaded += 1;
    }
  }
  if (uploaded === 0) return;
  options.log(`seeded ${uploaded} storage objects`);
  await processSeededFiles(options);
}

/** Runs process-upload for every seeded file whose object now exists, as the seeded admin. */
async function processSeededFiles(options: SeedObjectsOptions): Promise<void> {
  const { rows: admins } = await options.adminPool.query<{ user_id: string; email: string }>(
    `select user_id, email from public.staff where role = 'ADMIN' order by email limit 1`,
  );
  const admin = admins[0];
  if (!admin) return;
  const now = Math.floor(Date.now() / 1000);
  const token = await signJwt(
    { sub: admin.user_id, email: admin.email, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 600 },
    options.jwtSecret,
  );
  const { rows } = await options.adminPool.query<{ id: string }>(
    `select f.id from public.files f
      where f.checksum is null
        and exists (select 1 from storage.objects o where o.bucket_id = 'media' and o.name = f.object_path)`,
  );
  await Promise.all(
    rows.map(async ({ id }) => {
      const response = await fetch(`${options.apiUrl}/functions/v1/process-upload`, {
        method: 'POST',
        headers: {
          apikey: options.serviceRoleKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ fileId: id }),
      });
      if (!response.ok) options.log(`process-upload ${id}: HTTP ${response.status} ${await response.text()}`);
    }),
  );
}
