import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { eventually } from '../helpers/checks.ts';
import { client, stackInfo } from '../helpers/clients.ts';
import { readFeed, readFeedCatalogue } from '../helpers/feed.ts';
import { seedAccounts } from '../helpers/seed.ts';

/** Mediateca's edge functions, invoked as the app invokes them, as admin, uploader and anon. */

let admin: SupabaseClient;
let uploader: SupabaseClient;
let anon: SupabaseClient;
let service: SupabaseClient;

async function signIn(email: string, password: string) {
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

async function failure(result: { error: unknown }) {
  expect(result.error).toBeInstanceOf(FunctionsHttpError);
  const response = (result.error as FunctionsHttpError).context as Response;
  return {
    status: response.status,
    body: (await response.json()) as { code?: string; message?: string; msg?: string },
  };
}

beforeAll(async () => {
  admin = await signIn(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  uploader = await signIn(seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
  anon = client('anon');
  service = client('service_role');
}, 120_000);

describe('staff-users', () => {
  it('lists staff sorted by e-mail with their roles, for admins only', async () => {
    const { data, error } = await admin.functions.invoke('staff-users', { body: { action: 'list' } });
    expect(error).toBeNull();
    const emails = (data.users as Array<{ email: string; role: string }>).map((u) => u.email);
    expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b, 'es')));
    expect(data.users).toContainEqual(expect.objectContaining({ email: 'front@mediateca.local', role: 'FRONT' }));
    // Academy members have Auth accounts but are not staff.
    expect(emails).not.toContain('lucia@agencia.example');
    expect(emails).not.toContain('tom@travel.example');

    const asUploader = await failure(await uploader.functions.invoke('staff-users', { body: { action: 'list' } }));
    expect(asUploader).toMatchObject({ status: 403, body: { code: 'NOT_ADMIN' } });
    const asAnon = await failure(await anon.functions.invoke('staff-users', { body: { action: 'list' } }));
    expect(asAnon.status).toBe(401);
  }, 60_000);

  it('creates a user who signs in with the stored role, changes the password, and deletes them', async () => {
    const email = `nuevo-${crypto.randomUUID().slice(0, 8)}@mediateca.local`;
    const created = await admin.functions.invoke('staff-users', {
      body: { action: 'create', email, password: 'clave-inicial', role: 'UPLOADER' },
    });
    expect(created.error).toBeNull();
    const uid = created.data.uid as string;
    const newcomer = await signIn(email, 'clave-inicial');
    expect((await newcomer.rpc('current_staff_role')).data).toBe('UPLOADER');

    const duplicate = await failure(
      await admin.functions.invoke('staff-users', {
        body: { action: 'create', email, password: 'otra-clave', role: 'ADMIN' },
      }),
    );
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'EMAIL_EXISTS' } });
    const missing = await failure(
      await admin.functions.invoke('staff-users', {
        body: { action: 'create', email: '', password: '', role: 'ADMIN' },
      }),
    );
    expect(missing).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', message: 'Todos los campos son obligatorios' },
    });

    expect(
      (
        await admin.functions.invoke('staff-users', {
          body: { action: 'update-password', uid, password: 'clave-nueva' },
        })
      ).error,
    ).toBeNull();
    expect((await client('anon').auth.signInWithPassword({ email, password: 'clave-nueva' })).error).toBeNull();
    expect((await client('anon').auth.signInWithPassword({ email, password: 'clave-inicial' })).error?.code).toBe(
      'invalid_credentials',
    );

    const byUploader = await failure(
      await uploader.functions.invoke('staff-users', { body: { action: 'delete', uid } }),
    );
    expect(byUploader.body.code).toBe('NOT_ADMIN');
    expect((await admin.functions.invoke('staff-users', { body: { action: 'delete', uid } })).error).toBeNull();
    expect((await client('anon').auth.signInWithPassword({ email, password: 'clave-nueva' })).error?.code).toBe(
      'invalid_credentials',
    );
    expect((await service.from('staff').select('user_id').eq('user_id', uid)).data).toEqual([]);
  }, 60_000);

  it('refuses to delete yourself', async () => {
    const self = (await admin.auth.getUser()).data.user!.id;
    const refused = await failure(
      await admin.functions.invoke('staff-users', { body: { action: 'delete', uid: self } }),
    );
    expect(refused).toMatchObject({ status: 400, body: { code: 'CANNOT_DELETE_SELF' } });
  });
});

describe('video-info', () => {
  it('returns the title and the standard thumbnail, else high, else medium', async () => {
    const standard = await admin.functions.invoke('video-info', {
      body: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s' },
    });
    expect(standard.data).toEqual({
      youtubeId: 'dQw4w9WgXcQ',
      youtubeUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      title: 'Vídeo dQw4w9WgXcQ',
      thumbnailUrl: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/sddefault.jpg',
    });
    const high = await admin.functions.invoke('video-info', { body: { url: 'https://youtu.be/M7lc1UVf_VE' } });
    expect(high.data.thumbnailUrl).toBe('https://i.ytimg.com/vi/M7lc1UVf_VE/hqdefault.jpg');
    const medium = await admin.functions.invoke('video-info', {
      body: { url: 'https://www.youtube.com/shorts/onlyMedium1' },
    });
    expect(medium.data.thumbnailUrl).toBe('https://i.ytimg.com/vi/onlyMedium1/mqdefault.jpg');
  }, 60_000);

  it('answers invalid URLs with 400, unknown videos with 404, a provider failure with 502, a refused key with 503', async () => {
    expect(await failure(await admin.functions.invoke('video-info', { body: { url: 'no es una url' } }))).toMatchObject(
      {
        status: 400,
        body: { code: 'INVALID_URL' },
      },
    );
    expect(
      await failure(await admin.functions.invoke('video-info', { body: { url: 'https://youtu.be/unknown123' } })),
    ).toMatchObject({
      status: 404,
      body: { code: 'VIDEO_NOT_FOUND' },
    });
    expect(
      await failure(await admin.functions.invoke('video-info', { body: { url: 'https://youtu.be/providerDown' } })),
    ).toMatchObject({
      status: 502,
      body: { code: 'PROVIDER_UNAVAILABLE' },
    });
    // A key the provider refuses is a configuration problem (503 with its code), never a 500.
    expect(
      await failure(await admin.functions.invoke('video-info', { body: { url: 'https://youtu.be/keyRefused' } })),
    ).toMatchObject({
      status: 503,
      body: { code: 'NOT_CONFIGURED', message: expect.stringContaining('VIDEO_PROVIDER_API_KEY') },
    });
    expect(
      (await failure(await uploader.functions.invoke('video-info', { body: { url: 'https://youtu.be/dQw4w9WgXcQ' } })))
        .body.code,
    ).toBe('NOT_ADMIN');
  });
});

describe('process-upload', () => {
  it('records size, mime type, dimensions and checksum, warms thumbnails, and a second run changes nothing', async () => {
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#0084D8' } })
      .jpeg()
      .toBuffer();
    const fileId = crypto.randomUUID();
    const objectPath = `${fileId}/${crypto.randomUUID()}.jpg`;
    const uploaderId = (await uploader.auth.getUser()).data.user!.id;
    expect(
      (
        await uploader.storage
          .from('media')
          .upload(objectPath, jpeg, { contentType: 'image/jpeg', cacheControl: 'no-cache' })
      ).error,
    ).toBeNull();
    const inserted = await uploader.from('files').insert({
      id: fileId,
      file_name: objectPath.split('/')[1],
      object_path: objectPath,
      original_file_name: 'azul.jpg',
      name_es: 'azul',
      name_en: 'azul',
      size: jpeg.length,
      uploader_id: uploaderId,
      uploader_email: seedAccounts.UPLOADER.email,
      extension: 'jpg',
    });
    expect(inserted.error).toBeNull();

    // The server's job queue processes the new file on its own; wait for it, no app involved.
    await eventually(async () => {
      const { data } = await service.from('files').select('processing').eq('id', fileId).single();
      return data?.processing === false ? true : undefined;
    });
    const { data: row } = await service
      .from('files')
      .select('processing, width, height, checksum, mime_type, size, updated_at')
      .eq('id', fileId)
      .single();
    expect(row).toMatchObject({
      processing: false,
      width: 1200,
      height: 800,
      mime_type: 'image/jpeg',
      size: jpeg.length,
      checksum: createHash('sha256').update(jpeg).digest('hex'),
    });

    const again = await uploader.functions.invoke('process-upload', { body: { fileId } });
    expect(again.error).toBeNull();
    expect(again.data).toMatchObject({ processing: false, changed: false });
    const { data: after } = await service.from('files').select('updated_at').eq('id', fileId).single();
    expect(after!.updated_at).toBe(row!.updated_at);

    const token = (await uploader.auth.getSession()).data.session!.access_token;
    const cached = await fetch(
      `${(uploader as unknown as { supabaseUrl: string }).supabaseUrl}/storage/v1/render/image/authenticated/media/${objectPath}?width=200&height=150&resize=cover`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(cached.headers.get('x-cache')).toBe('HIT');
  }, 60_000);

  it('keeps the file processing, with the error recorded, when the object is missing', async () => {
    const fileId = crypto.randomUUID();
    await service.from('files').insert({
      id: fileId,
      file_name: 'x.png',
      object_path: `${fileId}/x.png`,
      original_file_name: 'x.png',
      name_es: 'x',
      name_en: 'x',
      size: 1,
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      extension: 'png',
    });
    const result = await failure(await admin.functions.invoke('process-upload', { body: { fileId } }));
    // A missing object may be a Storage outage: a transient failure (503), tried again by the job queue.
    expect(result).toMatchObject({ status: 503, body: { code: 'PROCESSING_FAILED' } });
    const { data } = await service.from('files').select('processing, processing_error').eq('id', fileId).single();
    expect(data?.processing).toBe(true);
    expect(data?.processing_error).toBe(
      'No se pudo leer el archivo en el servidor. Se volverá a intentar automáticamente.',
    );
  });

  it("refuses another uploader's file", async () => {
    const fileId = crypto.randomUUID();
    await service.from('files').insert({
      id: fileId,
      file_name: 'y.png',
      object_path: `${fileId}/y.png`,
      original_file_name: 'y.png',
      name_es: 'y',
      name_en: 'y',
      size: 1,
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      extension: 'png',
    });
    expect((await failure(await uploader.functions.invoke('process-upload', { body: { fileId } }))).status).toBe(404);
  });
});

describe('trash-jobs', () => {
  it('moves the object of a deleted file to the trash bucket and marks the job done', async () => {
    const fileId = crypto.randomUUID();
    const objectPath = `${fileId}/borrar.txt`;
    expect(
      (await service.storage.from('media').upload(objectPath, 'bytes que no se pierden', { contentType: 'text/plain' }))
        .error,
    ).toBeNull();
    await service.from('files').insert({
      id: fileId,
      file_name: 'borrar.txt',
      object_path: objectPath,
      original_file_name: 'borrar.txt',
      name_es: 'b',
      name_en: 'b',
      size: 23,
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      extension: 'txt',
      processing: false,
    });
    expect((await admin.rpc('delete_files', { p_file_ids: [fileId] })).error).toBeNull();

    const run = await admin.functions.invoke('trash-jobs', { body: {} });
    expect(run.error).toBeNull();
    const { data: job } = await service.from('trash_jobs').select('pending, done_at').eq('file_id', fileId).single();
    expect(job?.pending).toBe(false);
    expect(job?.done_at).not.toBeNull();
    expect((await service.storage.from('media').exists(objectPath)).data).toBe(false);
    const trashed = await service.storage.from('trash').download(objectPath);
    expect(await trashed.data!.text()).toBe('bytes que no se pierden');

    expect((await failure(await anon.functions.invoke('trash-jobs', { body: {} }))).status).toBe(401);
  }, 60_000);

  it("queues the previous object of a replaced file, which the uploader's request moves to the trash", async () => {
    const fileId = crypto.randomUUID();
    const firstPath = `${fileId}/primera.txt`;
    const secondPath = `${fileId}/${crypto.randomUUID()}.txt`;
    for (const [path, text] of [
      [firstPath, 'versión uno'],
      [secondPath, 'versión dos'],
    ]) {
      expect(
        (await service.storage.from('media').upload(path!, text!, { contentType: 'text/plain' })).error,
      ).toBeNull();
    }
    const uploaderId = (await uploader.auth.getUser()).data.user!.id;
    const inserted = await service.from('files').insert({
      id: fileId,
      file_name: 'primera.txt',
      object_path: firstPath,
      original_file_name: 'primera.txt',
      name_es: 'r',
      name_en: 'r',
      size: 11,
      uploader_id: uploaderId,
      extension: 'txt',
      processing: false,
    });
    expect(inserted.error).toBeNull();
    const renamed = await uploader.from('files').update({ name_es: 'renombrado' }).eq('id', fileId);
    expect(renamed.error).toBeNull();
    expect((await service.from('trash_jobs').select('id').eq('file_id', fileId)).data).toEqual([]);

    const replaced = await uploader
      .from('files')
      .update({ object_path: secondPath, file_name: secondPath.split('/')[1] })
      .eq('id', fileId);
    expect(replaced.error).toBeNull();
    const { data: jobs } = await service.from('trash_jobs').select('object_path').eq('file_id', fileId);
    expect(jobs).toEqual([{ object_path: firstPath }]);

    // The server's worker may have moved it already; asking again is harmless and finishes it otherwise.
    expect((await uploader.functions.invoke('trash-jobs', { body: {} })).error).toBeNull();
    expect((await service.storage.from('media').exists(firstPath)).data).toBe(false);
    expect(await (await service.storage.from('trash').download(firstPath)).data!.text()).toBe('versión uno');
    expect(await (await service.storage.from('media').download(secondPath)).data!.text()).toBe('versión dos');
  }, 60_000);
});

describe('public-feed and public-media', () => {
  const feedIds = async () => (await readFeed(stackInfo().apiUrl)).files.map((file) => file.id).sort();

  it('rebuilds the feed for staff only, and the server keeps it following an unpublish', async () => {
    const run = await uploader.functions.invoke('public-feed', { body: {} });
    expect(run.error).toBeNull();
    expect(run.data).toEqual({ pagesQueued: expect.any(Number) });
    const published = (await service.from('files').select('id').eq('published', true)).data!.map((f) => f.id).sort();
    await eventually(async () => ((await feedIds()).join() === published.join() ? true : undefined));
    const { files } = await readFeed(stackInfo().apiUrl);
    const pool = files.find((f) => f.id === 'f0000000-0000-4000-8000-000000000001')!;
    const catalogue = await readFeedCatalogue(stackInfo().apiUrl);
    const tagName = (id: string) => catalogue.tags.find((tag) => tag.id === id)?.nameEs;
    expect(pool.tags.map(tagName).sort()).toEqual(['Piscina', 'Verano']);
    expect(Object.keys((pool.urls as { thumbnails: Record<string, string> }).thumbnails)).toEqual([
      '200x150',
      '300x225',
      '400x300',
      '500x375',
      '1024x768',
      '2048x1536',
    ]);

    expect((await admin.rpc('publish_files', { p_published: false, p_file_ids: [pool.id] })).error).toBeNull();
    await eventually(async () => ((await feedIds()).includes(pool.id) ? undefined : true));
    await admin.rpc('publish_files', { p_published: true, p_file_ids: [pool.id] });

    const refused = await failure(await anon.functions.invoke('public-feed', { body: {} }));
    expect(refused).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'Tienes que iniciar sesión.' } });
  }, 60_000);

  it('links published files publicly and nothing else', async () => {
    const fileId = crypto.randomUUID();
    const objectPath = `${fileId}/publico.txt`;
    await service.storage.from('media').upload(objectPath, 'contenido público', { contentType: 'text/plain' });
    await service.from('files').insert({
      id: fileId,
      file_name: 'publico.txt',
      object_path: objectPath,
      original_file_name: 'publico.txt',
      name_es: 'p',
      name_en: 'p',
      size: 17,
      uploader_id: 'a0000000-0000-4000-8000-000000000001',
      extension: 'txt',
      processing: false,
      published: false,
    });
    const base = `${(anon as unknown as { supabaseUrl: string }).supabaseUrl}/functions/v1/public-media/${fileId}`;
    expect((await fetch(base, { redirect: 'manual' })).status).toBe(404);
    await service.from('files').update({ published: true }).eq('id', fileId);
    const followed = await fetch(base);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toBe('contenido público');
  });
});
