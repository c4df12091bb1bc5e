import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client, stackInfo } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * The entries functions of the browser-built ZIPs: collection-zip lists a public collection's published
 * files to anyone, files-zip lists what the signed-in caller may read of a selection (their RLS). Each answers
 * one bounded page {entries: [{id, name, size, lastModified, url}], next} with signed URLs of the originals.
 */

interface EntryPage {
  name?: string;
  entries: Array<{ id: string; name: string; size: number; lastModified: string; url: string }>;
  next: string | null;
}

const PAGE = 200;
let service: SupabaseClient;
const created = { files: [] as string[], collections: [] as string[] };
const functionsUrl = () => `${stackInfo().apiUrl}/functions/v1`;

/** A file with real bytes in the media bucket, named `name` on the uploader's disk. */
async function makeFile(options: { published: boolean; name?: string; owner?: 'ADMIN' | 'UPLOADER'; title?: string }) {
  const id = crypto.randomUUID();
  const name = options.name ?? 'foto.jpg';
  const objectPath = `${id}/${name}`;
  const bytes = Buffer.from(`bytes of ${id}`);
  const upload = await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' });
  expect(upload.error).toBeNull();
  const owner = seedAccounts[options.owner ?? 'ADMIN'];
  const { error } = await service.from('files').insert({
    id,
    file_name: name,
    object_path: objectPath,
    original_file_name: name,
    name_es: options.title ?? `Foto ${id.slice(0, 8)}`,
    name_en: options.title ?? `Photo ${id.slice(0, 8)}`,
    size: bytes.length,
    uploader_id: owner.id,
    uploader_email: owner.email,
    extension: 'jpg',
    processing: false,
    published: options.published,
  });
  expect(error).toBeNull();
  created.files.push(id);
  return { id, bytes };
}

async function makeCollection(isPublic: boolean, fileIds: string[]) {
  const { data, error } = await service
    .from('collections')
    .insert({ name: `ZIP ${crypto.randomUUID().slice(0, 8)}`, is_public: isPublic })
    .select('id')
    .single();
  expect(error).toBeNull();
  created.collections.push(data!.id);
  for (let i = 0; i < fileIds.length; i += 500) {
    const links = await service
      .from('collection_files')
      .insert(fileIds.slice(i, i + 500).map((fileId) => ({ collection_id: data!.id, file_id: fileId })));
    expect(links.error).toBeNull();
  }
  return data!.id as string;
}

async function tokenOf(role: 'ADMIN' | 'UPLOADER') {
  const signedIn = await client('anon').auth.signInWithPassword(seedAccounts[role]);
  if (signedIn.error) throw signedIn.error;
  return signedIn.data.session.access_token;
}

const collectionPage = (id: string, after?: string) =>
  fetch(`${functionsUrl()}/collection-zip/${id}${after ? `?after=${after}` : ''}`);

const filesPage = (token: string | null, body: unknown) =>
  fetch(`${functionsUrl()}/files-zip`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

async function bytesAt(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

beforeAll(() => {
  service = client('service_role');
});

afterAll(async () => {
  await service.from('collections').delete().in('id', created.collections);
  for (let i = 0; i < created.files.length; i += 200) {
    await service
      .from('files')
      .delete()
      .in('id', created.files.slice(i, i + 200));
  }
});

describe('collection-zip (anonymous)', () => {
  it("lists a public collection's published files with signed URLs of their bytes, and nothing unpublished", async () => {
    const first = await makeFile({ published: true });
    const second = await makeFile({ published: true, name: 'Plano/planta.pdf' });
    const hidden = await makeFile({ published: false });
    const id = await makeCollection(true, [first.id, second.id, hidden.id]);
    const response = await collectionPage(id);
    expect(response.status).toBe(200);
    const page = (await response.json()) as EntryPage;
    expect(page.next).toBeNull();
    expect(page.name).toMatch(/^ZIP /);
    expect(page.entries.map((entry) => entry.id).sort()).toEqual([first.id, second.id].sort());
    const byId = new Map(page.entries.map((entry) => [entry.id, entry]));
    expect(byId.get(first.id)).toMatchObject({ name: 'foto.jpg', size: first.bytes.length });
    // Original names as uploaded: the browser makes them safe and unique across the whole archive.
    expect(byId.get(second.id)!.name).toBe('Plano/planta.pdf');
    expect(Number.isNaN(Date.parse(byId.get(first.id)!.lastModified))).toBe(false);
    expect((await bytesAt(byId.get(first.id)!.url)).equals(first.bytes)).toBe(true);
    expect((await bytesAt(byId.get(second.id)!.url)).equals(second.bytes)).toBe(true);
  });

  it('pages by file id: every published file exactly once, a bounded page at a time', async () => {
    const files = await Promise.all(Array.from({ length: PAGE + 5 }, () => makeFile({ published: true })));
    const id = await makeCollection(
      true,
      files.map((file) => file.id),
    );
    const seen: string[] = [];
    const sizes: number[] = [];
    for (let after: string | undefined, pages = 0; pages === 0 || after; pages += 1) {
      const page = (await (await collectionPage(id, after)).json()) as EntryPage;
      sizes.push(page.entries.length);
      seen.push(...page.entries.map((entry) => entry.id));
      after = page.next ?? undefined;
    }
    expect(sizes).toEqual([PAGE, 5]);
    expect(seen.sort()).toEqual(files.map((file) => file.id).sort());
  });

  it('answers NOT_FOUND for a private, unknown or malformed collection and a malformed cursor', async () => {
    const published = await makeFile({ published: true });
    const closed = await makeCollection(false, [published.id]);
    const open = await makeCollection(true, [published.id]);
    for (const response of [
      await collectionPage(closed),
      await collectionPage(crypto.randomUUID()),
      await collectionPage('nada'),
      await collectionPage(open, 'nada'),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'Esta colección no está disponible.' });
    }
  });
});

describe('files-zip (signed in, under RLS)', () => {
  it('lists the selected files an admin may read, published or not, with signed URLs of their bytes', async () => {
    const published = await makeFile({ published: true });
    const hidden = await makeFile({ published: false });
    const response = await filesPage(await tokenOf('ADMIN'), {
      selection: { fileIds: [published.id, hidden.id] },
      after: null,
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as EntryPage;
    expect(page.next).toBeNull();
    const byId = new Map(page.entries.map((entry) => [entry.id, entry]));
    expect([...byId.keys()].sort()).toEqual([published.id, hidden.id].sort());
    expect((await bytesAt(byId.get(published.id)!.url)).equals(published.bytes)).toBe(true);
    expect((await bytesAt(byId.get(hidden.id)!.url)).equals(hidden.bytes)).toBe(true);
  });

  it("gives an uploader only their own files, by ids or by the files screen's filter", async () => {
    const word = `zipsolo${crypto.randomUUID().slice(0, 8)}`;
    const adminsFile = await makeFile({ published: true, title: `Piscina ${word}` });
    const own = await makeFile({ published: false, owner: 'UPLOADER', title: `Terraza ${word}` });
    const token = await tokenOf('UPLOADER');

    const refused = await filesPage(token, { selection: { fileIds: [adminsFile.id] } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ code: 'NOT_FOUND', message: 'No hay archivos que descargar.' });

    const byIds = (await (
      await filesPage(token, { selection: { fileIds: [adminsFile.id, own.id] } })
    ).json()) as EntryPage;
    expect(byIds.entries.map((entry) => entry.id)).toEqual([own.id]);

    const byFilter = (await (await filesPage(token, { selection: { filter: { query: word } } })).json()) as EntryPage;
    expect(byFilter.entries.map((entry) => entry.id)).toEqual([own.id]);
    const asAdmin = (await (
      await filesPage(await tokenOf('ADMIN'), { selection: { filter: { query: word } } })
    ).json()) as EntryPage;
    expect(asAdmin.entries.map((entry) => entry.id).sort()).toEqual([adminsFile.id, own.id].sort());
  });

  it('refuses an anonymous or forged caller, a malformed selection or cursor, and other methods', async () => {
    const selection = { fileIds: [crypto.randomUUID()] };
    for (const token of [null, 'not-a-token', stackInfo().anonKey]) {
      const response = await filesPage(token, { selection });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { code: string }).code).toBe('NOT_SIGNED_IN');
    }
    const token = await tokenOf('ADMIN');
    for (const body of [{ selection: { nada: 1 } }, { selection, after: 'nada' }]) {
      const response = await filesPage(token, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('INVALID_SELECTION');
    }
    expect((await fetch(`${functionsUrl()}/files-zip`)).status).toBe(405);
  });
});
