import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as tus from 'tus-js-client';
import sharp from 'sharp';
import { adminDb, postgresDb, client, clientFor, signedInUser, stackInfo } from '../../tests/helpers/clients.ts';
import { eventually, sha256 } from '../../tests/helpers/checks.ts';
import { ownStackHome } from '../../tests/helpers/own-stack.ts';

/** Storage through the official clients: storage-js for objects, tus-js-client for resumable uploads. */

const BUCKET = `docs-${crypto.randomUUID().slice(0, 8)}`;
const CHUNK = 1024 * 1024;

let service: SupabaseClient;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  service = client('service_role');
  const created = await service.storage.createBucket(BUCKET, {
    public: false,
    fileSizeLimit: 30 * 1024 * 1024,
    allowedMimeTypes: ['image/*', 'application/pdf', 'text/plain', 'application/octet-stream'],
  });
  expect(created.error).toBeNull();
  const db = await postgresDb();
  try {
    // As a migration would write it on Supabase: each user reads and writes only under their own folder.
    for (const [operation, clause] of [
      ['select', `using (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
      ['insert', `with check (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
      ['update', `using (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
      ['delete', `using (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
    ] as const) {
      await db.query(
        `create policy "${BUCKET} users ${operation} own folder" on storage.objects for ${operation} to authenticated ${clause}`,
      );
    }
  } finally {
    await db.end();
  }
  alice = await signedInUser();
  bob = await signedInUser();
});

afterAll(async () => {
  const db = await adminDb();
  try {
    for (const operation of ['select', 'insert', 'update', 'delete']) {
      await db.query(`drop policy if exists "${BUCKET} users ${operation} own folder" on storage.objects`);
    }
  } finally {
    await db.end();
  }
});

describe('objects', () => {
  it('round-trips bytes with equal sha256 and serves info, exists and ranges', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const key = `${alice.user.id}/photos/raw.bin`;
    const uploaded = await alice.client.storage
      .from(BUCKET)
      .upload(key, bytes, { contentType: 'application/octet-stream' });
    expect(uploaded.error).toBeNull();
    expect(uploaded.data?.fullPath).toBe(`${BUCKET}/${key}`);

    const downloaded = await alice.client.storage.from(BUCKET).download(key);
    expect(downloaded.error).toBeNull();
    expect(sha256(await downloaded.data!.arrayBuffer())).toBe(sha256(bytes));

    const info = await alice.client.storage.from(BUCKET).info(key);
    expect(info.data).toMatchObject({ size: bytes.length, contentType: 'application/octet-stream' });
    expect((await alice.client.storage.from(BUCKET).exists(key)).data).toBe(true);
    expect((await alice.client.storage.from(BUCKET).exists(`${alice.user.id}/nope.bin`)).data).toBe(false);

    const token = alice.session.access_token;
    const ranged = await fetch(`${stackInfo().apiUrl}/storage/v1/object/${BUCKET}/${key}`, {
      headers: { authorization: `Bearer ${token}`, apikey: stackInfo().anonKey, range: 'bytes=10-19' },
    });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(10, 20));
  });

  it('uploads a multipart Blob with cache control and user metadata', async () => {
    const key = `${alice.user.id}/hola.txt`;
    const { error } = await alice.client.storage
      .from(BUCKET)
      .upload(key, new Blob(['¡Hola!'], { type: 'text/plain' }), { cacheControl: '120', metadata: { hotel: 'Sol' } });
    expect(error).toBeNull();
    const info = await alice.client.storage.from(BUCKET).info(key);
    expect(info.data).toMatchObject({
      contentType: 'text/plain',
      cacheControl: 'max-age=120',
      metadata: { hotel: 'Sol' },
    });
    expect(await (await alice.client.storage.from(BUCKET).download(key)).data!.text()).toBe('¡Hola!');
  });

  it('refuses to overwrite without upsert and replaces with it', async () => {
    const key = `${alice.user.id}/version.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    expect((await bucket.upload(key, 'uno', { contentType: 'text/plain' })).error).toBeNull();
    const again = await bucket.upload(key, 'dos', { contentType: 'text/plain' });
    expect(again.error).toMatchObject({ statusCode: '409' });
    expect((await bucket.upload(key, 'tres', { contentType: 'text/plain', upsert: true })).error).toBeNull();
    expect(await (await bucket.download(key)).data!.text()).toBe('tres');
    expect((await bucket.update(key, 'cuatro', { contentType: 'text/plain' })).error).toBeNull();
    expect(await (await bucket.download(key)).data!.text()).toBe('cuatro');
  });

  it('removes the bytes of a replaced version once the replacement has answered', async () => {
    const key = `${alice.user.id}/replaced.txt`;
    const bucket = alice.client.storage.from(BUCKET);
    const db = await adminDb();
    const blobOf = async () => {
      const { rows } = await db.query<{ version: string }>(
        'select version from storage.objects where bucket_id = $1 and name = $2',
        [BUCKET, key],
      );
      const version = rows[0]!.version;
      return path.join(stackInfo().dataDir, 'storage', 'blobs', version.slice(0, 2), version);
    };
    try {
      expect((await bucket.upload(key, 'primera', { contentType: 'text/plain' })).error).toBeNull();
      const first = await blobOf();
      expect(await stat(first).then((s) => s.size)).toBe(7);
      expect((await bucket.upload(key, 'segunda', { contentType: 'text/plain', upsert: true })).error).toBeNull();
      const second = await blobOf();
      expect(second).not.toBe(first);
      await eventually(async () => ((await stat(first).catch(() => null)) === null ? true : undefined));
      expect(await readFile(second, 'utf8')).toBe('segunda');
    } finally {
      await db.end();
    }
  });

  it('lists one level, moves, copies and removes', async () => {
    const bucket = alice.client.storage.from(BUCKET);
    const base = `${alice.user.id}/album`;
    for (const name of ['b.txt', 'a.txt', 'sub/c.txt']) {
      expect((await bucket.upload(`${base}/${name}`, name, { contentType: 'text/plain' })).error).toBeNull();
    }
    const listed = await bucket.list(base, { sortBy: { column: 'name', order: 'asc' } });
    expect(listed.data?.map((entry) => [entry.name, entry.id === null])).toEqual([
      ['a.txt', false],
      ['b.txt', false],
      ['sub', true],
    ]);
    expect((await bucket.list(base, { search: 'b' })).data?.map((e) => e.name)).toEqual(['b.txt']);
    expect((await bucket.list(base, { limit: 1, offset: 1 })).data?.map((e) => e.name)).toEqual(['b.txt']);

    expect((await bucket.move(`${base}/a.txt`, `${base}/moved.txt`)).error).toBeNull();
    expect((await bucket.copy(`${base}/b.txt`, `${base}/copy.txt`)).error).toBeNull();
    expect(await (await bucket.download(`${base}/moved.txt`)).data!.text()).toBe('a.txt');
    expect(await (await bucket.download(`${base}/copy.txt`)).data!.text()).toBe('b.txt');
    expect((await bucket.download(`${base}/a.txt`)).error).toMatchObject({ message: 'Object not found' });

    const removed = await bucket.remove([`${base}/moved.txt`, `${base}/copy.txt`, `${base}/missing.txt`]);
    expect(removed.data?.map((row) => row.name).sort()).toEqual([`${base}/copy.txt`, `${base}/moved.txt`]);
  });

  it('signs a download URL that works and then expires', async () => {
    const key = `${alice.user.id}/signed.txt`;
    await alice.client.storage.from(BUCKET).upload(key, 'firmado', { contentType: 'text/plain' });
    const signed = await alice.client.storage.from(BUCKET).createSignedUrl(key, 1);
    expect(signed.error).toBeNull();
    const ok = await fetch(signed.data!.signedUrl);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('firmado');
    // Signed for one second: asked again until the signature has run out.
    const expired = await eventually(async () => {
      const answer = await fetch(signed.data!.signedUrl);
      return answer.status === 200 ? undefined : answer;
    });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ statusCode: '400', code: 'ExpiredToken' });

    const many = await alice.client.storage.from(BUCKET).createSignedUrls([key, `${bob.user.id}/x.txt`], 60);
    expect(many.data?.map((entry) => entry.error)).toEqual([
      null,
      'Either the object does not exist or you do not have access to it',
    ]);
  });

  it('uploads to a signed upload URL', async () => {
    const key = `${alice.user.id}/via-signed-upload.txt`;
    const signed = await alice.client.storage.from(BUCKET).createSignedUploadUrl(key);
    expect(signed.error).toBeNull();
    const put = await client('anon')
      .storage.from(BUCKET)
      .uploadToSignedUrl(key, signed.data!.token, 'por firma', { contentType: 'text/plain' });
    expect(put.error).toBeNull();
    expect(await (await alice.client.storage.from(BUCKET).download(key)).data!.text()).toBe('por firma');
  });
});

describe('who may do what is decided by the policies', () => {
  it('lets a user write, read, list and delete under their own folder only', async () => {
    const mine = `${alice.user.id}/privado.txt`;
    const theirs = `${bob.user.id}/intruso.txt`;
    expect(
      (await alice.client.storage.from(BUCKET).upload(mine, 'mío', { contentType: 'text/plain' })).error,
    ).toBeNull();
    const denied = await alice.client.storage.from(BUCKET).upload(theirs, 'no', { contentType: 'text/plain' });
    expect(denied.error).toMatchObject({ statusCode: '403' });

    expect((await bob.client.storage.from(BUCKET).download(mine)).error).toMatchObject({ statusCode: '404' });
    expect((await bob.client.storage.from(BUCKET).list(alice.user.id)).data).toEqual([]);
    expect((await alice.client.storage.from(BUCKET).list(alice.user.id)).data?.length).toBeGreaterThan(0);

    const bobRemoves = await bob.client.storage.from(BUCKET).remove([mine]);
    expect(bobRemoves.data).toEqual([]);
    expect((await alice.client.storage.from(BUCKET).exists(mine)).data).toBe(true);
    expect((await alice.client.storage.from(BUCKET).remove([mine])).data).toHaveLength(1);

    expect((await client('anon').storage.from(BUCKET).download(`${alice.user.id}/hola.txt`)).error).toMatchObject({
      message: 'Object not found',
    });
  });

  it('serves a public bucket to anyone, but signs its objects only for callers the policies let select them', async () => {
    // storage-api's signObjectUrl finds the object as the caller, public bucket or not; only downloads skip RLS.
    const id = `pub-${crypto.randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(id, { public: true })).error).toBeNull();
    try {
      expect(
        (await service.storage.from(id).upload('cartel.txt', 'cartel', { contentType: 'text/plain' })).error,
      ).toBeNull();
      const publicUrl = service.storage.from(id).getPublicUrl('cartel.txt').data.publicUrl;
      expect(await (await fetch(publicUrl)).text()).toBe('cartel');
      expect((await client('anon').storage.from(id).download('cartel.txt')).data).not.toBeNull();

      for (const caller of [client('anon'), alice.client]) {
        const refused = await caller.storage.from(id).createSignedUrl('cartel.txt', 60);
        expect(refused.data).toBeNull();
        expect(refused.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
      }
      const signed = await service.storage.from(id).createSignedUrl('cartel.txt', 60);
      expect(await (await fetch(signed.data!.signedUrl)).text()).toBe('cartel');
    } finally {
      await service.storage.emptyBucket(id);
      await service.storage.deleteBucket(id);
    }
  });

  it('refuses a TUS upload into another user’s folder at creation, before any byte', async () => {
    const error = await new Promise<Error>((resolve) => {
      const upload = new tus.Upload(Buffer.from('no'), {
        endpoint: `${stackInfo().apiUrl}/storage/v1/upload/resumable`,
        headers: { authorization: `Bearer ${alice.session.access_token}`, apikey: stackInfo().anonKey },
        metadata: { bucketName: BUCKET, objectName: `${bob.user.id}/tus.txt`, contentType: 'text/plain' },
        retryDelays: [],
        onError: resolve,
        onSuccess: () => resolve(new Error('unexpected success')),
      });
      upload.start();
    });
    expect(String(error)).toMatch(/403/);
    expect(String(error)).toMatch(/row-level security/);
  });
});

describe('bucket limits', () => {
  it('refuses files over the bucket size limit and disallowed mime types', async () => {
    const limited = `limited-${crypto.randomUUID().slice(0, 8)}`;
    await service.storage.createBucket(limited, {
      public: false,
      fileSizeLimit: 1024,
      allowedMimeTypes: ['image/png'],
    });
    const tooBig = await service.storage
      .from(limited)
      .upload('big.png', randomBytes(2048), { contentType: 'image/png' });
    expect(tooBig.error).toMatchObject({ statusCode: '413' });
    const wrongType = await service.storage
      .from(limited)
      .upload('doc.pdf', randomBytes(10), { contentType: 'application/pdf' });
    expect(wrongType.error).toMatchObject({ statusCode: '415' });
    expect(
      (await service.storage.from(limited).upload('ok.png', randomBytes(10), { contentType: 'image/png' })).error,
    ).toBeNull();

    const tusRefusal = await new Promise<Error>((resolve) => {
      new tus.Upload(randomBytes(4096), {
        endpoint: `${stackInfo().apiUrl}/storage/v1/upload/resumable`,
        headers: { authorization: `Bearer ${stackInfo().serviceRoleKey}` },
        metadata: { bucketName: limited, objectName: 'big.png', contentType: 'image/png' },
        retryDelays: [],
        onError: resolve,
        onSuccess: () => resolve(new Error('unexpected success')),
      }).start();
    });
    expect(String(tusRefusal)).toMatch(/413/);
  });

  it("checks a TUS upload's rules again on the PATCH that completes it, not on the chunks before", async () => {
    const bucket = `rechecked-${crypto.randomUUID().slice(0, 8)}`;
    await service.storage.createBucket(bucket, { public: false });
    const headers = { authorization: `Bearer ${stackInfo().serviceRoleKey}`, 'tus-resumable': '1.0.0' };
    const meta = (value: string) => Buffer.from(value).toString('base64');
    const created = await fetch(`${stackInfo().apiUrl}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        ...headers,
        'upload-length': '10',
        'upload-metadata': `bucketName ${meta(bucket)},objectName ${meta('late.png')},contentType ${meta('image/png')}`,
      },
    });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const patch = (offset: number, bytes: number) =>
      fetch(url, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Blob([randomBytes(bytes)]),
      });
    expect((await patch(0, 5)).status).toBe(204);
    // The bucket stops taking PNGs between the chunks: the completing chunk is refused, nothing is published.
    expect(
      (await service.storage.updateBucket(bucket, { public: false, allowedMimeTypes: ['application/pdf'] })).error,
    ).toBeNull();
    const last = await patch(5, 5);
    expect(last.status).toBe(415);
    expect((await service.storage.from(bucket).exists('late.png')).data).toBe(false);
  });

  it('manages buckets with the service role and refuses them to users', async () => {
    const id = `tmp-${crypto.randomUUID().slice(0, 8)}`;
    expect((await service.storage.createBucket(id, { public: true })).error).toBeNull();
    expect((await service.storage.getBucket(id)).data).toMatchObject({ id, public: true });
    expect((await service.storage.updateBucket(id, { public: false })).error).toBeNull();
    await service.storage.from(id).upload('x.txt', 'x', { contentType: 'text/plain' });
    expect((await service.storage.deleteBucket(id)).error).toMatchObject({ statusCode: '409' });
    expect((await service.storage.emptyBucket(id)).error).toBeNull();
    expect((await service.storage.deleteBucket(id)).error).toBeNull();
    expect((await alice.client.storage.createBucket('mine')).error).toMatchObject({ statusCode: '403' });
  });
});

function tusUpload(
  apiUrl: string,
  bytes: Buffer,
  options: { objectName: string; token: string; uploadUrl?: string; abortAt?: number },
): Promise<{ url: string; sent: number; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const upload = new tus.Upload(bytes, {
      endpoint: `${apiUrl}/storage/v1/upload/resumable`,
      uploadUrl: options.uploadUrl ?? null,
      headers: { authorization: `Bearer ${options.token}`, 'x-upsert': 'true' },
      metadata: { bucketName: BUCKET, objectName: options.objectName, contentType: 'application/octet-stream' },
      chunkSize: CHUNK,
      retryDelays: [0],
      onChunkComplete: (chunkSize) => {
        sent += chunkSize;
        if (options.abortAt !== undefined && sent >= options.abortAt) {
          void upload.abort().then(() => resolve({ url: upload.url!, sent, aborted: true }));
        }
      },
      onError: reject,
      onSuccess: () => resolve({ url: upload.url!, sent, aborted: false }),
    });
    upload.start();
  });
}

async function serverOffset(url: string, token: string): Promise<number> {
  const head = await fetch(url, {
    method: 'HEAD',
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` },
  });
  return Number(head.headers.get('upload-offset'));
}

describe('TUS resumable uploads', () => {
  it('resumes an interrupted upload from the server offset, re-sending at most one chunk', async () => {
    const bytes = randomBytes(8 * CHUNK + 12345);
    const objectName = `${alice.user.id}/big.bin`;
    const token = alice.session.access_token;
    const first = await tusUpload(stackInfo().apiUrl, bytes, { objectName, token, abortAt: 4 * CHUNK });
    expect(first.aborted).toBe(true);
    expect(first.url).toMatch(new RegExp(`^${stackInfo().apiUrl}/storage/v1/upload/resumable/`));
    const offset = await serverOffset(first.url, token);
    expect(offset).toBeGreaterThan(0);
    expect(first.sent - offset).toBeLessThanOrEqual(CHUNK);
    // Nothing is visible until the last byte lands.
    expect((await alice.client.storage.from(BUCKET).exists(objectName)).data).toBe(false);

    const second = await tusUpload(stackInfo().apiUrl, bytes, { objectName, token, uploadUrl: first.url });
    expect(second.aborted).toBe(false);
    expect(second.sent).toBe(bytes.length - offset);
    const downloaded = await alice.client.storage.from(BUCKET).download(objectName);
    expect(sha256(await downloaded.data!.arrayBuffer())).toBe(sha256(bytes));
  });

  it('resumes after the whole stack restarts', async () => {
    const home = await ownStackHome('mediateca-restart-');
    let stack = await home.start({ seed: false });
    try {
      const restartBucket = `restart-${crypto.randomUUID().slice(0, 6)}`;
      const adminClient = clientFor(stack.apiUrl, stack.serviceRoleKey);
      expect((await adminClient.storage.createBucket(restartBucket)).error).toBeNull();
      const bytes = randomBytes(6 * CHUNK + 99);
      const upload = (uploadUrl?: string, abortAt?: number) =>
        new Promise<{ url: string; sent: number }>((resolve, reject) => {
          let sent = 0;
          const u = new tus.Upload(bytes, {
            endpoint: `${stack.apiUrl}/storage/v1/upload/resumable`,
            uploadUrl: uploadUrl ?? null,
            headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
            metadata: { bucketName: restartBucket, objectName: 'survivor.bin' },
            chunkSize: CHUNK,
            retryDelays: [0],
            onChunkComplete: (size) => {
              sent += size;
              if (abortAt !== undefined && sent >= abortAt) void u.abort().then(() => resolve({ url: u.url!, sent }));
            },
            onError: reject,
            onSuccess: () => resolve({ url: u.url!, sent }),
          });
          u.start();
        });
      const first = await upload(undefined, 3 * CHUNK);
      await stack.stop();
      stack = await home.start({ seed: false });
      const offset = await serverOffset(first.url, stack.serviceRoleKey);
      expect(offset).toBeGreaterThanOrEqual(2 * CHUNK);
      const second = await upload(first.url);
      expect(second.sent).toBe(bytes.length - offset);
      const downloaded = await adminClient.storage.from(restartBucket).download('survivor.bin');
      expect(sha256(await downloaded.data!.arrayBuffer())).toBe(sha256(bytes));
    } finally {
      await stack.stop();
      await home.remove();
    }
  }, 120_000);
});

describe('image transformations', () => {
  it('renders cover and contain exactly, and serves the second identical request from cache', async () => {
    const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#0084D8' } })
      .jpeg()
      .toBuffer();
    const key = `${alice.user.id}/foto.jpg`;
    await alice.client.storage.from(BUCKET).upload(key, jpeg, { contentType: 'image/jpeg' });
    const token = alice.session.access_token;
    const render = (query: string, accept = 'image/jpeg') =>
      fetch(`${stackInfo().apiUrl}/storage/v1/render/image/authenticated/${BUCKET}/${key}?${query}`, {
        headers: { authorization: `Bearer ${token}`, apikey: stackInfo().anonKey, accept },
      });

    const cover = await render('width=400&height=300&resize=cover');
    expect(cover.status).toBe(200);
    expect(cover.headers.get('x-cache')).toBe('MISS');
    const coverMeta = await sharp(Buffer.from(await cover.arrayBuffer())).metadata();
    expect([coverMeta.width, coverMeta.height, coverMeta.format]).toEqual([400, 300, 'jpeg']);

    const again = await render('width=400&height=300&resize=cover');
    expect(again.headers.get('x-cache')).toBe('HIT');

    const contain = await render('width=400&height=300&resize=contain');
    const containMeta = await sharp(Buffer.from(await contain.arrayBuffer())).metadata();
    expect(containMeta.width).toBeLessThanOrEqual(400);
    expect(containMeta.height).toBeLessThanOrEqual(300);
    expect(containMeta.width === 400 || containMeta.height === 300).toBe(true);

    const webp = await render('width=200&height=150', 'image/webp,*/*');
    expect(webp.headers.get('content-type')).toBe('image/webp');

    const downloaded = await alice.client.storage
      .from(BUCKET)
      .download(key, { transform: { width: 300, height: 225 } });
    expect((await sharp(Buffer.from(await downloaded.data!.arrayBuffer())).metadata()).width).toBe(300);

    const oversized = await render('width=99999');
    expect(oversized.status).toBe(400);
    expect((await oversized.json()).statusCode).toBe('400');
  });

  it('refuses to transform a document', async () => {
    const key = `${alice.user.id}/doc.pdf`;
    await alice.client.storage.from(BUCKET).upload(key, Buffer.from('%PDF-1.4'), { contentType: 'application/pdf' });
    const response = await fetch(
      `${stackInfo().apiUrl}/storage/v1/render/image/authenticated/${BUCKET}/${key}?width=100`,
      {
        headers: { authorization: `Bearer ${alice.session.access_token}` },
      },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).statusCode).toBe('422');
  });
});
