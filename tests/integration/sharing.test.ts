import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { client, stackInfo } from '../helpers/clients.ts';
import { seedAccounts, seedCollections } from '../helpers/seed.ts';

/**
 * What anonymous visitors of shared links may read: one published file or one public collection
 * by id, through get_public_file/get_public_collection and the public-media function, and nothing else.
 * Also the collections' file count kept by triggers, and that clients cannot write it.
 */

let anon: SupabaseClient;
let admin: SupabaseClient;
let service: SupabaseClient;
const created = { files: [] as string[], collections: [] as string[] };

async function signIn(email: string, password: string) {
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

/** A processed image file with real bytes in the media bucket. */
async function makeImage(published: boolean) {
  const id = crypto.randomUUID();
  const objectPath = `${id}/foto.jpg`;
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: `#${id.slice(0, 6)}` } })
    .jpeg()
    .toBuffer();
  const upload = await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' });
  expect(upload.error).toBeNull();
  const { error } = await service.from('files').insert({
    id,
    file_name: 'foto.jpg',
    object_path: objectPath,
    original_file_name: 'foto.jpg',
    name_es: `Foto ${id.slice(0, 8)}`,
    name_en: `Photo ${id.slice(0, 8)}`,
    description_es: 'Vista del hotel',
    description_en: 'Hotel view',
    size: bytes.length,
    uploader_id: seedAccounts.ADMIN.id,
    uploader_email: seedAccounts.ADMIN.email,
    extension: 'jpg',
    processing: false,
    width: 640,
    height: 480,
    published,
  });
  expect(error).toBeNull();
  created.files.push(id);
  return { id, bytes };
}

async function makeCollection(isPublic: boolean, fileIds: string[]) {
  const { data, error } = await service
    .from('collections')
    .insert({ name: `Compartida ${crypto.randomUUID().slice(0, 8)}`, is_public: isPublic })
    .select('id')
    .single();
  expect(error).toBeNull();
  created.collections.push(data!.id);
  if (fileIds.length > 0) {
    const links = await service
      .from('collection_files')
      .insert(fileIds.map((fileId) => ({ collection_id: data!.id, file_id: fileId })));
    expect(links.error).toBeNull();
  }
  return data!.id as string;
}

const mediaUrl = (fileId: string, query = '') => `${stackInfo().apiUrl}/functions/v1/public-media/${fileId}${query}`;

beforeAll(async () => {
  anon = client('anon');
  service = client('service_role');
  admin = await signIn(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
}, 120_000);

afterAll(async () => {
  await service.from('collections').delete().in('id', created.collections);
  await service.from('files').delete().in('id', created.files);
});

describe('anonymous visitors', () => {
  it('cannot list files, collections or their links', async () => {
    await makeImage(true);
    for (const table of ['files', 'collections', 'collection_files']) {
      const { data, error } = await anon.from(table).select('*').limit(5);
      // Either refused outright or an empty answer; never a row.
      expect(data ?? []).toEqual([]);
      expect(error?.code ?? '42501').toBe('42501');
    }
  });

  it('read one published file by id, with only its public fields', async () => {
    const { id } = await makeImage(true);
    const { data, error } = await anon.rpc('get_public_file', { p_file_id: id });
    expect(error).toBeNull();
    expect(data).toEqual({
      id,
      nameEs: `Foto ${id.slice(0, 8)}`,
      nameEn: `Photo ${id.slice(0, 8)}`,
      descriptionEs: 'Vista del hotel',
      descriptionEn: 'Hotel view',
      extension: 'jpg',
      size: expect.any(Number),
      isImage: true,
      width: 640,
      height: 480,
      uploadedOn: expect.any(String),
      // The credits a person recorded (empty here); never the licence, usage terms or embedded metadata.
      creator: '',
      credit: '',
      copyright: '',
    });
    expect(JSON.stringify(data)).not.toContain(seedAccounts.ADMIN.email);
  });

  it('get nothing for an unpublished or unknown file', async () => {
    const { id } = await makeImage(false);
    expect(await anon.rpc('get_public_file', { p_file_id: id })).toMatchObject({ data: null, error: null });
    expect(await anon.rpc('get_public_file', { p_file_id: crypto.randomUUID() })).toMatchObject({
      data: null,
      error: null,
    });
  });

  it('read a public collection with only its published files, and nothing of a private one', async () => {
    const published = await makeImage(true);
    const hidden = await makeImage(false);
    const shared = await makeCollection(true, [published.id, hidden.id]);
    const { data, error } = await anon.rpc('get_public_collection', { p_collection_id: shared });
    expect(error).toBeNull();
    expect((data as { files: Array<{ id: string }> }).files.map((f) => f.id)).toEqual([published.id]);

    const closed = await makeCollection(false, [published.id]);
    expect(await anon.rpc('get_public_collection', { p_collection_id: closed })).toMatchObject({
      data: null,
      error: null,
    });
    expect((await anon.rpc('get_public_collection', { p_collection_id: seedCollections.agencias })).data).toBeNull();

    // Unpublishing a file takes it off the public collection at once.
    await service.from('files').update({ published: false }).eq('id', published.id);
    const after = await anon.rpc('get_public_collection', { p_collection_id: shared });
    expect((after.data as { files: unknown[] }).files).toEqual([]);
  });

  it('download a published original and its previews, but no byte of an unpublished file', async () => {
    const published = await makeImage(true);
    const original = await fetch(mediaUrl(published.id));
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(published.bytes)).toBe(true);
    for (const query of ['?size=400x300', '?size=1024x768&fit=contain']) {
      const preview = await fetch(mediaUrl(published.id, query));
      expect(preview.status).toBe(200);
      expect(preview.headers.get('content-type')).toMatch(/^image\//);
    }
    const contained = await sharp(
      Buffer.from(await (await fetch(mediaUrl(published.id, '?size=400x300&fit=contain'))).arrayBuffer()),
    ).metadata();
    // 640×480 fits 400×300 without cropping: the whole picture, scaled.
    expect([contained.width, contained.height]).toEqual([400, 300]);

    const hidden = await makeImage(false);
    for (const query of ['', '?size=400x300', '?size=1024x768&fit=contain']) {
      expect((await fetch(mediaUrl(hidden.id, query), { redirect: 'manual' })).status).toBe(404);
    }
    const direct = await anon.storage.from('media').download(`${hidden.id}/foto.jpg`);
    expect(direct.error).toMatchObject({ message: 'Object not found' });
    const directPublished = await anon.storage.from('media').download(`${published.id}/foto.jpg`);
    expect(directPublished.error).toMatchObject({ message: 'Object not found' });
  });
});

describe('collection file count', () => {
  it('follows bulk adds, removals and file deletions', async () => {
    const files = await Promise.all([makeImage(true), makeImage(false), makeImage(true)]);
    const id = await makeCollection(false, []);
    const count = async () =>
      (await service.from('collections').select('file_count').eq('id', id).single()).data!.file_count as number;

    const added = await admin.rpc('add_files_to_collection', {
      p_collection_id: id,
      p_file_ids: files.map((f) => f.id),
    });
    expect(added).toMatchObject({ data: 3, error: null });
    expect(await count()).toBe(3);
    // Adding again changes nothing (on conflict do nothing inserts no row).
    await admin.rpc('add_files_to_collection', { p_collection_id: id, p_file_ids: [files[0]!.id] });
    expect(await count()).toBe(3);

    await admin.rpc('remove_file_from_collection', { p_collection_id: id, p_file_id: files[0]!.id });
    expect(await count()).toBe(2);
    await service.from('files').delete().eq('id', files[1]!.id);
    expect(await count()).toBe(1);
  });

  it('cannot be written by clients, even admins', async () => {
    const id = await makeCollection(false, []);
    const { error } = await admin.from('collections').update({ file_count: 99 }).eq('id', id);
    expect(error?.code).toBe('42501');
    const insert = await admin.from('collections').insert({ name: 'Trampa', file_count: 5 });
    expect(insert.error?.code).toBe('42501');
  });
});

describe('link previews (Open Graph) of shared links', () => {
  const previewUrl = (kind: string, id: string) => `${stackInfo().apiUrl}/functions/v1/share-preview/${kind}/${id}`;
  const meta = (html: string, property: string) =>
    new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];

  it("give a published file's title, description and picture, and a public collection's", async () => {
    const file = await makeImage(true);
    await service.from('files').update({ name_es: 'Piscina <al> "atardecer"' }).eq('id', file.id);
    const response = await fetch(previewUrl('file', file.id));
    expect(response.status).toBe(200);
    // As hosted Supabase serves it without a custom domain (README "Link previews").
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const html = await response.text();
    expect(meta(html, 'og:title')).toBe('Piscina &lt;al&gt; &quot;atardecer&quot;');
    expect(meta(html, 'og:description')).toBe('Vista del hotel');
    expect(meta(html, 'og:url')).toMatch(new RegExp(`/file/${file.id}$`));
    const image = meta(html, 'og:image')!;
    expect((await fetch(image.replaceAll('&amp;', '&'))).headers.get('content-type')).toMatch(/^image\//);

    const collection = await makeCollection(true, [file.id]);
    const shared = await (await fetch(previewUrl('collection', collection))).text();
    expect(meta(shared, 'og:title')).toMatch(/^Compartida /);
    expect(meta(shared, 'og:description')).toBe('Colección compartida: 1 archivo');
    expect(meta(shared, 'og:image')).toBe(image);
  });

  it('say nothing about an unpublished file or a private collection', async () => {
    const hidden = await makeImage(false);
    const response = await fetch(previewUrl('file', hidden.id));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(meta(html, 'og:title')).toBe('Mediateca');
    expect(html).not.toContain('Foto');
    expect(meta(html, 'og:image')).toBeUndefined();

    const closed = await makeCollection(false, []);
    expect((await fetch(previewUrl('collection', closed))).status).toBe(404);
  });
});
