import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import WebSocket from 'ws';
import pg from 'pg';
import { ANALYST_LOCAL_PASSWORD, ANALYST_LOCAL_USER } from '@mediateca/stack';
import { adminDb, client, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * Enlaces compartidos: what an anonymous holder of a link may read, through open_share_link and the
 * share-link-media function, and what they may not: a revoked, expired or other link's files, a grant of
 * another link, a guessed token, a grant replayed after revocation, an original of a link without downloads.
 */

let anon: SupabaseClient;
let admin: SupabaseClient;
let service: SupabaseClient;
const created = { files: [] as string[], collections: [] as string[] };

async function makeImage(published = false) {
  const id = crypto.randomUUID();
  const objectPath = `${id}/foto.jpg`;
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: `#${id.slice(0, 6)}` } })
    .jpeg()
    .toBuffer();
  expect(
    (await service.storage.from('media').upload(objectPath, bytes, { contentType: 'image/jpeg' })).error,
  ).toBeNull();
  const { error } = await service.from('files').insert({
    id,
    file_name: 'foto.jpg',
    object_path: objectPath,
    original_file_name: 'foto.jpg',
    name_es: `Foto ${id.slice(0, 8)}`,
    name_en: `Photo ${id.slice(0, 8)}`,
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

interface NewLink {
  name?: string;
  fileIds?: string[];
  collectionId?: string;
  expiresAt?: string | null;
  password?: string;
  allowDownloads?: boolean;
}

async function createLink(options: NewLink) {
  const { data, error } = await admin.rpc('create_share_link', {
    p_name: options.name ?? 'Para la agencia',
    p_expires_at: options.expiresAt === undefined ? new Date(Date.now() + 86_400_000).toISOString() : options.expiresAt,
    p_password: options.password ?? null,
    p_allow_downloads: options.allowDownloads ?? true,
    p_collection_id: options.collectionId ?? null,
    p_file_ids: options.fileIds ?? null,
  });
  expect(error).toBeNull();
  return data as { id: string; token: string };
}

const open = (token: string, extra: { p_password?: string; p_grant?: string } = {}, caller = anon) =>
  caller.rpc('open_share_link', { p_token: token, ...extra }).then(({ data, error }) => {
    expect(error).toBeNull();
    return data as { status: string; grant?: string; name?: string; files?: { id: string }[] };
  });

const mediaUrl = (token: string, fileId: string, query: string) =>
  `${stackInfo().apiUrl}/functions/v1/share-link-media/${token}/${fileId}?${query}`;
const media = (token: string, fileId: string, query: string) =>
  fetch(mediaUrl(token, fileId, query), { redirect: 'manual' });

/** A caller behind a given address, as hosted Supabase's edge tells PostgREST (X-Forwarded-For). */
const withHeader = (address: string) =>
  createClient(stackInfo().apiUrl, stackInfo().anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { 'X-Forwarded-For': `${address}, 10.0.0.1` } },
  });

beforeAll(async () => {
  anon = client('anon');
  service = client('service_role');
  admin = await signedInSeed('ADMIN');
}, 120_000);

afterAll(async () => {
  await service.from('share_links').delete().in('name', ['Para la agencia', 'Otra', 'Colección', 'Sin descargas']);
  await service.from('collections').delete().in('id', created.collections);
  await service.from('files').delete().in('id', created.files);
});

describe('creating a link', () => {
  it('is for admins only, and keeps only hashes of the token and the password', async () => {
    const { id: fileId } = await makeImage();
    const uploader = await signedInSeed('UPLOADER');
    const refused = await uploader.rpc('create_share_link', { p_name: 'X', p_expires_at: null, p_file_ids: [fileId] });
    expect(refused.error?.hint).toBe('NOT_ADMIN');
    const refusedAnon = await anon.rpc('create_share_link', { p_name: 'X', p_expires_at: null, p_file_ids: [fileId] });
    expect(refusedAnon.error?.code).toBe('42501');

    const link = await createLink({ fileIds: [fileId], password: 'secreto-1' });
    // 24 random bytes in URL-safe base64: 192 bits.
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const db = await adminDb();
    try {
      const { rows } = await db.query(
        `select encode(token_hash, 'hex') as token_hash, password_hash from private.share_link_secrets where link_id = $1`,
        [link.id],
      );
      expect(rows[0].password_hash).toMatch(/^\$2a\$10\$/);
      expect(JSON.stringify(rows)).not.toContain(link.token);
      expect(JSON.stringify(rows)).not.toContain('secreto-1');
    } finally {
      await db.end();
    }
    const { data: row } = await admin.from('share_links').select('*').eq('id', link.id).single();
    expect(row).toMatchObject({
      kind: 'files',
      file_count: 1,
      has_password: true,
      created_by_email: seedAccounts.ADMIN.email,
    });
    expect(JSON.stringify(row)).not.toContain(link.token);
  });
});

describe('opening a link signed out', () => {
  it('shows the link name and exactly its files, unpublished ones too, and counts the view', async () => {
    const [a, b, other] = [await makeImage(false), await makeImage(true), await makeImage(true)];
    const link = await createLink({ fileIds: [a.id, b.id] });
    const page = await open(link.token);
    expect(page.status).toBe('ok');
    expect(page.name).toBe('Para la agencia');
    expect(page.files!.map((f) => f.id).sort()).toEqual([a.id, b.id].sort());
    expect(page.files!.map((f) => f.id)).not.toContain(other.id);
    const { data } = await admin.from('share_links').select('views').eq('id', link.id).single();
    expect(data!.views).toBe(1);

    const render = await media(link.token, a.id, 'size=400x300');
    expect(render.status).toBe(302);
    const original = await media(link.token, a.id, 'original=1');
    expect(original.status).toBe(302);
    const bytes = Buffer.from(await (await fetch(original.headers.get('location')!)).arrayBuffer());
    expect(bytes.equals(a.bytes)).toBe(true);
    // A file the link does not hold, through this link's token.
    const foreign = await media(link.token, other.id, 'original=1');
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).code).toBe('LINK_UNAVAILABLE');
    const { data: counted } = await admin.from('share_links').select('downloads').eq('id', link.id).single();
    expect(counted!.downloads).toBe(1);
  });

  it('drops a file sent to the Papelera at once', async () => {
    const kept = await makeImage();
    const trashed = await makeImage();
    const link = await createLink({ fileIds: [kept.id, trashed.id] });
    expect((await admin.rpc('delete_files', { p_file_ids: [trashed.id] })).error).toBeNull();
    expect((await open(link.token)).files!.map((f) => f.id)).toEqual([kept.id]);
    expect((await media(link.token, trashed.id, 'size=400x300')).status).toBe(404);
  });

  it('follows a collection as it changes', async () => {
    const first = await makeImage();
    const later = await makeImage();
    const { data: collection } = await service.from('collections').insert({ name: 'Privada' }).select('id').single();
    created.collections.push(collection!.id);
    await service.from('collection_files').insert({ collection_id: collection!.id, file_id: first.id });
    const link = await createLink({ collectionId: collection!.id, name: 'Colección' });
    expect((await open(link.token)).files!.map((f) => f.id)).toEqual([first.id]);
    await service.from('collection_files').insert({ collection_id: collection!.id, file_id: later.id });
    expect((await open(link.token)).files!.map((f) => f.id).sort()).toEqual([first.id, later.id].sort());
  });

  it('gives nothing for a guessed token', async () => {
    const { id } = await makeImage();
    const guessed = 'A'.repeat(32);
    expect(await open(guessed)).toEqual({ status: 'unavailable' });
    expect((await media(guessed, id, 'size=400x300')).status).toBe(404);
  });
});

describe('expiry and revocation', () => {
  it('take effect at once on the page, the renders and the originals', async () => {
    const { id } = await makeImage();
    const expiring = await createLink({ fileIds: [id] });
    const revoked = await createLink({ fileIds: [id] });
    expect((await media(expiring.token, id, 'original=1')).status).toBe(302);

    const past = new Date(Date.now() - 1000).toISOString();
    expect(
      (
        await admin.rpc('update_share_link', {
          p_id: expiring.id,
          p_name: 'Para la agencia',
          p_expires_at: past,
          p_allow_downloads: true,
        })
      ).error,
    ).toBeNull();
    expect((await admin.rpc('revoke_share_link', { p_id: revoked.id })).error).toBeNull();
    for (const token of [expiring.token, revoked.token]) {
      expect(await open(token)).toEqual({ status: 'unavailable' });
      for (const query of ['size=400x300', 'size=2048x1536&fit=contain', 'original=1', 'original=1&json=1']) {
        const answer = await media(token, id, query);
        expect(answer.status, query).toBe(404);
        expect((await answer.json()).code).toBe('LINK_UNAVAILABLE');
      }
    }
    const { data } = await admin.from('share_links').select('id, revoked_at').eq('id', revoked.id).single();
    expect(data!.revoked_at).not.toBeNull();
  });

  it('a link created already expired opens nothing', async () => {
    const { id } = await makeImage();
    const link = await createLink({ fileIds: [id], expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(await open(link.token)).toEqual({ status: 'unavailable' });
  });
});

describe('a link with a password', () => {
  it('asks for it, refuses a wrong one, and proves the right one with a grant bound to that link', async () => {
    const { id } = await makeImage();
    const link = await createLink({ fileIds: [id], password: 'brisa-marina' });
    const other = await createLink({ fileIds: [id], password: 'otra-clave', name: 'Otra' });
    expect(await open(link.token)).toEqual({ status: 'password_required' });
    expect((await media(link.token, id, 'size=400x300')).status).toBe(404);
    expect(await open(link.token, { p_password: 'no-es' })).toEqual({ status: 'wrong_password' });

    const page = await open(link.token, { p_password: 'brisa-marina' });
    expect(page.status).toBe('ok');
    expect(page.grant).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await open(link.token, { p_grant: page.grant! })).status).toBe('ok');
    expect((await media(link.token, id, `size=400x300&grant=${page.grant}`)).status).toBe(302);
    // A valid grant of one link opens nothing of another.
    expect(await open(other.token, { p_grant: page.grant! })).toEqual({ status: 'password_required' });
    expect((await media(other.token, id, `size=400x300&grant=${page.grant}`)).status).toBe(404);

    // Replayed after revocation.
    expect((await admin.rpc('revoke_share_link', { p_id: link.id })).error).toBeNull();
    expect(await open(link.token, { p_grant: page.grant! })).toEqual({ status: 'unavailable' });
    expect((await media(link.token, id, `original=1&grant=${page.grant}`)).status).toBe(404);
  });

  it('a changed password drops the grants given before', async () => {
    const { id } = await makeImage();
    const link = await createLink({ fileIds: [id], password: 'primera' });
    const page = await open(link.token, { p_password: 'primera' });
    const changed = await admin.rpc('update_share_link', {
      p_id: link.id,
      p_name: 'Para la agencia',
      p_expires_at: null,
      p_allow_downloads: true,
      p_password_action: 'set',
      p_password: 'segunda',
    });
    expect(changed.error).toBeNull();
    expect(await open(link.token, { p_grant: page.grant! })).toEqual({ status: 'password_required' });
    expect((await open(link.token, { p_password: 'segunda' })).status).toBe('ok');
  });

  it('after 5 wrong attempts from one address refuses that address for 15 minutes, not others', async () => {
    const { id } = await makeImage();
    const link = await createLink({ fileIds: [id], password: 'correcta' });
    const address = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const caller = withHeader(address);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await open(link.token, { p_password: `mal-${attempt}` }, caller)).toEqual({ status: 'wrong_password' });
    }
    expect(await open(link.token, { p_password: 'correcta' }, caller)).toEqual({ status: 'too_many_attempts' });
    expect((await open(link.token, { p_password: 'correcta' }, withHeader('203.0.113.7'))).status).toBe('ok');
  });
});

describe('a link without downloads', () => {
  it('shows renders up to 2048 px and refuses the original in every way', async () => {
    const { id } = await makeImage();
    const link = await createLink({ fileIds: [id], allowDownloads: false, name: 'Sin descargas' });
    const page = (await open(link.token)) as { status: string; allowDownloads?: boolean };
    expect(page).toMatchObject({ status: 'ok', allowDownloads: false });
    expect((await media(link.token, id, 'size=2048x1536&fit=contain')).status).toBe(302);
    for (const query of ['original=1', 'original=1&json=1']) {
      const refused = await media(link.token, id, query);
      expect(refused.status).toBe(403);
      expect((await refused.json()).code).toBe('DOWNLOAD_NOT_ALLOWED');
    }
    // Sizes other than the six renders (an original's size, say) are refused too.
    expect((await media(link.token, id, 'size=640x480')).status).toBe(400);
    // The RPC that names the object is the service role's alone.
    const direct = await anon.rpc('share_link_media', {
      p_token: link.token,
      p_grant: null,
      p_file_id: id,
      p_original: true,
    });
    expect(direct.error?.code).toBe('42501');
    // And anon reads no table of links.
    for (const table of ['share_links', 'share_link_files']) {
      const { data, error } = await anon.from(table).select('*');
      expect(data ?? []).toEqual([]);
      expect(error?.code ?? '42501').toBe('42501');
    }
  });
});

describe("a link's ZIP, a page of entries at a time", () => {
  const zipPage = (token: string, body: unknown) =>
    fetch(`${stackInfo().apiUrl}/functions/v1/share-link-media/${token}/zip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('signs the originals of the files a page names that the link shows, each counted as a download', async () => {
    const [a, b, other] = [await makeImage(), await makeImage(), await makeImage()];
    const link = await createLink({ fileIds: [a.id, b.id] });
    const answer = await zipPage(link.token, { fileIds: [b.id, other.id, a.id] });
    expect(answer.status).toBe(200);
    const { entries } = (await answer.json()) as {
      entries: { id: string; name: string; size: number; lastModified: string; url: string }[];
    };
    // In the page's order; a file of no link of this token is left out.
    expect(entries.map((entry) => entry.id)).toEqual([b.id, a.id]);
    expect(entries[1]).toMatchObject({ name: 'foto.jpg', size: a.bytes.length });
    const bytes = Buffer.from(await (await fetch(entries[1]!.url)).arrayBuffer());
    expect(bytes.equals(a.bytes)).toBe(true);
    const { data } = await admin.from('share_links').select('downloads').eq('id', link.id).single();
    expect(data!.downloads).toBe(2);
  });

  it('refuses a link without downloads, a revoked link, a missing grant and an oversized page', async () => {
    const { id } = await makeImage();
    const noDownloads = await createLink({ fileIds: [id], allowDownloads: false, name: 'Sin descargas' });
    const refused = await zipPage(noDownloads.token, { fileIds: [id] });
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('DOWNLOAD_NOT_ALLOWED');

    const locked = await createLink({ fileIds: [id], password: 'secreto-zip' });
    expect((await zipPage(locked.token, { fileIds: [id] })).status).toBe(404);
    const { grant } = await open(locked.token, { p_password: 'secreto-zip' });
    expect((await zipPage(locked.token, { grant, fileIds: [id] })).status).toBe(200);

    const revoked = await createLink({ fileIds: [id] });
    expect((await admin.rpc('revoke_share_link', { p_id: revoked.id })).error).toBeNull();
    const gone = await zipPage(revoked.token, { fileIds: [id] });
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe('LINK_UNAVAILABLE');

    const tooMany = Array.from({ length: 51 }, () => crypto.randomUUID());
    expect((await zipPage(locked.token, { grant, fileIds: tooMany })).status).toBe(400);
    expect((await zipPage(locked.token, { grant, fileIds: ['../x'] })).status).toBe(400);
  });
});

describe('analysts', () => {
  it('see links per state and views and downloads per link and month, without tokens or passwords', async () => {
    const { id } = await makeImage();
    const link = await createLink({ fileIds: [id], name: 'Otra' });
    await open(link.token);
    await open(link.token);
    expect((await media(link.token, id, 'original=1')).status).toBe(302);
    const url = new URL(stackInfo().dbUrl);
    url.username = ANALYST_LOCAL_USER;
    url.password = ANALYST_LOCAL_PASSWORD;
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const usage = await db.query(
        `select state, views::int, downloads::int from analytics.share_link_usage where link_id = $1`,
        [link.id],
      );
      expect(usage.rows).toEqual([{ state: 'active', views: 2, downloads: 1 }]);
      const monthly = await db.query(
        `select views::int, downloads::int, month = date_trunc('month', now() at time zone 'UTC')::date as this_month
           from analytics.share_link_usage_by_month where link_id = $1`,
        [link.id],
      );
      expect(monthly.rows).toEqual([{ views: 2, downloads: 1, this_month: true }]);
      const states = await db.query(`select state from analytics.share_links_by_state order by state`);
      expect(states.rows.map((r) => r.state)).toEqual(expect.arrayContaining(['active', 'expired', 'revoked']));
      const columns = await db.query(
        `select column_name from information_schema.columns where table_schema = 'analytics' and table_name like 'share_link%'`,
      );
      expect(columns.rows.map((r) => r.column_name).join(' ')).not.toMatch(/token|password_hash|created_by/);
      // Nothing beyond the views: not the secrets, not the links table itself.
      await expect(db.query('select * from private.share_link_secrets')).rejects.toMatchObject({ code: '42501' });
      await expect(db.query('select * from public.share_links')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await db.end();
    }
  });
});
