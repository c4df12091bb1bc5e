import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { SignJWT } from 'jose';
import { adminDb, client, signedInSeed, stackInfo } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { spanishError } from '../../src/lib/errors.ts';

/**
 * Bad input everywhere: each row of the "Bad input" table in docs/operations.md is one case here, sent with the
 * official clients as a signed-in user would. Every case gets a clear error in the Supabase shape (and a
 * Spanish sentence from the app's spanishError), or is stored as plain text that is never interpreted; none
 * changes anything it should not.
 */
let admin: SupabaseClient;
let db: pg.Client;
let fileId: string;

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  db = await adminDb();
  fileId = (await insertFiles(`bad${crypto.randomUUID().slice(0, 6)}`, 1))[0]!;
});

afterAll(async () => {
  await db?.end();
});

let scratchBucket: string;
const folder = () => crypto.randomUUID();

/**
 * Sends the object name exactly as given (each byte outside the URL-safe set percent-encoded, nothing
 * normalised), as a raw HTTP client would: fetch and storage-js would already have dropped newlines, turned
 * `\\` into `/` and resolved `..` before the server saw them.
 */
function rawUpload(name: string): Promise<{ status: number; body: string }> {
  const encoded = name
    .split('/')
    .map((segment) => (segment === '.' || segment === '..' ? segment : encodeURIComponent(segment)))
    .join('/');
  const api = new URL(stackInfo().apiUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: api.hostname,
        port: api.port,
        method: 'POST',
        path: `/storage/v1/object/${scratchBucket}/${encoded}`,
        headers: { authorization: `Bearer ${stackInfo().serviceRoleKey}`, 'content-type': 'text/plain' },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      },
    );
    request.on('error', reject);
    request.end('x');
  });
}

const objectCount = async () =>
  (await db.query('select count(*)::int as n from storage.objects where bucket_id = $1', [scratchBucket])).rows[0].n;

describe('object names', () => {
  beforeAll(async () => {
    scratchBucket = `names-${crypto.randomUUID().slice(0, 8)}`;
    expect((await client('service_role').storage.createBucket(scratchBucket, { public: false })).error).toBeNull();
  });

  it.each(['<', '>', '\\', '|', '"', '%', '#', '{', '^'])(
    'refuses a name with %s, as Supabase Storage does',
    async (character) => {
      const { status, body } = await rawUpload(`${folder()}/a${character}b.txt`);
      expect(status).toBe(400);
      expect(JSON.parse(body)).toMatchObject({ statusCode: '400', error: 'Invalid Key' });
    },
  );

  it.each([':', '*', ',', ' ', "'", '(', '!', '@'])(
    'stores a name with %s, as Supabase Storage does',
    async (character) => {
      const { status } = await rawUpload(`${folder()}/a${character}b.txt`);
      expect(status).toBe(200);
    },
  );

  it.each([
    ['a control character', '\u0007bell.txt'],
    ['accented letters', 'año-niño.txt'],
    ['a 1025-character name', 'n'.repeat(1025)],
    ['an empty segment', 'a//b.txt'],
    ['a leading slash', '/root.txt'],
  ])('refuses %s with 400 InvalidKey', async (_what, name) => {
    const { status, body } = await rawUpload(`${folder()}/${name}`);
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ statusCode: '400', error: 'Invalid Key' });
  });

  it('never stores a newline, which no route matches once decoded', async () => {
    const { status } = await rawUpload(`${folder()}/line\nbreak.txt`);
    expect([400, 404]).toContain(status);
    const stored = await db.query(
      `select 1 from storage.objects where bucket_id = $1 and name like '%' || chr(10) || '%'`,
      [scratchBucket],
    );
    expect(stored.rows).toEqual([]);
  });

  it('resolves . and .. like any URL (inside the bucket), and never stores a dot segment', async () => {
    const parent = folder();
    expect((await rawUpload(`${parent}/./here.txt`)).status).toBe(200);
    expect((await rawUpload(`${parent}/sub/../up.txt`)).status).toBe(200);
    const { rows } = await db.query<{ name: string }>(
      'select name from storage.objects where bucket_id = $1 and name like $2 order by name',
      [scratchBucket, `${parent}/%`],
    );
    expect(rows.map((row) => row.name)).toEqual([`${parent}/here.txt`, `${parent}/up.txt`]);
  });

  it('refuses path traversal however it is spelled, and writes nothing anywhere', async () => {
    const before = await objectCount();
    for (const name of ['../../../etc/passwd', 'a/../../b', '..%2f..%2fx', '%2e%2e/%2e%2e/x', '..\\..\\x']) {
      const { status } = await rawUpload(name);
      // 400 InvalidKey, or 404 where the gateway resolved the dots to a path outside Storage.
      expect([400, 404], name).toContain(status);
    }
    expect(await objectCount()).toBe(before);
  });
});

describe('texts', () => {
  it('stores markup in every text field as text, exactly as typed', async () => {
    const xss = `<img src=x onerror="alert(1)"><script>alert('x')</script>`;
    const { data: version } = await admin.from('files').select('updated_at').eq('id', fileId).single();
    const saved = await admin.rpc('update_file', {
      p_file_id: fileId,
      p_name_es: xss,
      p_name_en: xss,
      p_description_es: xss,
      p_description_en: xss,
      p_tag_ids: [],
      p_expected_updated_at: version!.updated_at,
      p_expected_tag_ids: [],
    });
    expect(saved.error).toBeNull();
    const { data } = await admin
      .from('files')
      .select('name_es, name_en, description_es, description_en')
      .eq('id', fileId)
      .single();
    expect(data).toEqual({ name_es: xss, name_en: xss, description_es: xss, description_en: xss });
  });

  it('escapes markup where the server writes HTML (the link preview for a shared file)', async () => {
    await db.query(`update public.files set name_es = $2, name_en = $2, published = true where id = $1`, [
      fileId,
      '"><script>alert(1)</script>',
    ]);
    const response = await fetch(`${stackInfo().apiUrl}/functions/v1/share-preview/file/${fileId}`);
    const html = await response.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses a 501-character title and a 256-byte original name, in Spanish', async () => {
    const longTitle = await admin
      .from('files')
      .update({ name_es: 'a'.repeat(501) })
      .eq('id', fileId);
    expect(longTitle.error).toMatchObject({ code: '23514' });
    expect(spanishError(longTitle.error)).toBe('Alguno de los datos no es válido.');
    const longName = await client('service_role')
      .from('files')
      .update({ original_file_name: 'ñ'.repeat(128) })
      .eq('id', fileId);
    expect(longName.error).toMatchObject({ code: '23514' });
  });

  it('refuses control characters in titles and original names, but keeps line breaks in descriptions', async () => {
    const bell = await admin.from('files').update({ name_es: 'campana\u0007' }).eq('id', fileId);
    expect(bell.error).toMatchObject({ code: '23514' });
    const nul = await admin.from('files').update({ name_es: 'nul\u0000' }).eq('id', fileId);
    expect(nul.error).toMatchObject({ code: '22P05' });
    const described = await admin.from('files').update({ description_es: 'línea 1\nlínea 2\tfin' }).eq('id', fileId);
    expect(described.error).toBeNull();
  });
});

describe('tokens', () => {
  const restUrl = `${stackInfo().apiUrl}/rest/v1/files?select=id&limit=1`;
  const sign = (claims: Record<string, unknown>, secret: string) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));

  it.each([
    [
      'signed with another secret',
      async () => sign({ role: 'service_role', exp: Math.floor(Date.now() / 1000) + 60 }, 'x'.repeat(40)),
    ],
    ['expired', async () => sign({ role: 'authenticated', sub: crypto.randomUUID(), exp: 1 }, stackInfo().jwtSecret)],
    [
      'tampered (payload changed after signing)',
      async () => {
        const [header, , signature] = (
          await sign({ role: 'anon', exp: Math.floor(Date.now() / 1000) + 60 }, stackInfo().jwtSecret)
        ).split('.');
        const payload = Buffer.from(
          JSON.stringify({ role: 'service_role', exp: Math.floor(Date.now() / 1000) + 60 }),
        ).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      'alg none',
      async () =>
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`,
    ],
    ['not a JWT at all', async () => 'hola'],
  ])('a token %s gets 401 from PostgREST and Storage, and reads nothing', async (_what, token) => {
    const jwt = await token();
    const rest = await fetch(restUrl, { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${jwt}` } });
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ code: expect.stringMatching(/^PGRST30[13]$/) });
    const storage = await fetch(`${stackInfo().apiUrl}/storage/v1/object/list/media`, {
      method: 'POST',
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: '' }),
    });
    expect([400, 401, 403]).toContain(storage.status);
    expect(Array.isArray(await storage.json())).toBe(false);
  });
});

describe('bodies and arguments', () => {
  it('refuses an object over the bucket limit before storing it', async () => {
    const bucket = `tiny-${crypto.randomUUID().slice(0, 8)}`;
    expect(
      (await client('service_role').storage.createBucket(bucket, { public: false, fileSizeLimit: 1024 })).error,
    ).toBeNull();
    const { error } = await client('service_role')
      .storage.from(bucket)
      .upload('big.bin', new Uint8Array(8 * 1024 * 1024));
    expect(error).toMatchObject({ statusCode: '413' });
    expect((await client('service_role').storage.from(bucket).list()).data).toEqual([]);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await admin.from('files').select('id').limit(1)).status).toBe(200);
    }
    expect(spanishError({ status: 413, message: error!.message })).toBe('El archivo es demasiado grande.');
  });

  it('takes a 20 MB argument list to a bulk RPC in one statement, changing only rows that match', async () => {
    // PostgREST sets no body limit (nor does hosted Supabase in front of it); the function does one UPDATE.
    const unknown = Array.from({ length: 500_000 }, () => crypto.randomUUID());
    const { data, error } = await admin.rpc('publish_files', { p_published: true, p_file_ids: unknown });
    expect(error).toBeNull();
    expect(data).toBe(0);
  });

  it('refuses a JSON body over 1 MB to Storage', async () => {
    const response = await fetch(`${stackInfo().apiUrl}/storage/v1/object/list/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stackInfo().serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '400', message: 'Body too large' });
    // The refusal closes that connection: no later request waits behind the unread rest of the body.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await admin.from('files').select('id').limit(1)).status).toBe(200);
    }
  });

  it.each([
    ['a string where a boolean goes', { p_published: 'sí', p_file_ids: [] }],
    ['a number where uuids go', { p_published: true, p_file_ids: [42] }],
    ['a uuid that is not one', { p_published: true, p_file_ids: ['not-a-uuid'] }],
  ])('refuses %s with 400 and the Postgres code, in Spanish in the app', async (_what, args) => {
    const { error, status } = await admin.rpc('publish_files', args as never);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: '22P02' });
    expect(spanishError(error)).toBe('Alguno de los datos no es válido.');
  });

  it('refuses an argument the function does not have with PGRST202', async () => {
    const { error } = await admin.rpc('publish_files', { p_published: true, p_everything: true } as never);
    expect(error).toMatchObject({ code: 'PGRST202' });
  });
});
