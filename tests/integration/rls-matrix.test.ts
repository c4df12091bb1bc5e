import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { adminDb, client } from '../helpers/clients.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * Who may read and change what, as data: every table of `public` × every role × select/insert/update/
 * delete, run through supabase-js with really signed-in users of each role (and anon). An allowed cell must
 * succeed; a denied cell must fail or affect nothing. Select cells say what is visible: all rows, only the
 * caller's own, only public ones, or none.
 */

type Role = 'admin' | 'uploader' | 'front' | 'operations' | 'anon';
type Visibility = 'all' | 'own' | 'public' | 'none';
type Writes = Record<Role, boolean>;

const ROLES: Role[] = ['admin', 'uploader', 'front', 'operations', 'anon'];
const only = (...allowed: Role[]): Writes =>
  Object.fromEntries(ROLES.map((role) => [role, allowed.includes(role)])) as Writes;
const nobody = only();

interface TableCase {
  table: string;
  select: Record<Role, Visibility>;
  insert: Writes;
  update: Writes;
  delete: Writes;
}

const libraryRead = { admin: 'all', uploader: 'all', front: 'none', operations: 'none', anon: 'none' } as const;
const adminRead = { admin: 'all', uploader: 'none', front: 'none', operations: 'none', anon: 'none' } as const;

const MATRIX: TableCase[] = [
  {
    table: 'staff',
    select: { admin: 'all', uploader: 'own', front: 'own', operations: 'own', anon: 'none' },
    insert: nobody,
    update: nobody,
    delete: nobody,
  },
  { table: 'tag_categories', select: libraryRead, insert: only('admin'), update: only('admin'), delete: only('admin') },
  { table: 'tags', select: libraryRead, insert: only('admin'), update: only('admin'), delete: only('admin') },
  {
    table: 'files',
    // Anon reads one published file through get_public_file (tests/integration/sharing.test.ts), never the table.
    select: { admin: 'all', uploader: 'own', front: 'none', operations: 'none', anon: 'none' },
    insert: only('admin', 'uploader'),
    update: only('admin', 'uploader'),
    delete: only('admin'),
  },
  {
    table: 'file_tags',
    select: { admin: 'all', uploader: 'own', front: 'none', operations: 'none', anon: 'none' },
    insert: only('admin', 'uploader'),
    update: nobody,
    delete: only('admin', 'uploader'),
  },
  {
    // Written by post-processing (service role) only; staff read what they may read of the file.
    table: 'file_metadata',
    select: { admin: 'all', uploader: 'own', front: 'none', operations: 'none', anon: 'none' },
    insert: nobody,
    update: nobody,
    delete: nobody,
  },
  {
    table: 'collections',
    select: libraryRead,
    insert: only('admin'),
    update: only('admin'),
    delete: only('admin'),
  },
  {
    table: 'collection_files',
    select: { admin: 'all', uploader: 'own', front: 'none', operations: 'none', anon: 'none' },
    insert: only('admin'),
    update: nobody,
    delete: only('admin'),
  },
  {
    table: 'academy_categories',
    select: adminRead,
    insert: only('admin'),
    update: only('admin'),
    delete: only('admin'),
  },
  { table: 'academy_videos', select: adminRead, insert: only('admin'), update: only('admin'), delete: only('admin') },
  {
    table: 'academy_video_categories',
    select: adminRead,
    insert: only('admin'),
    update: nobody,
    delete: only('admin'),
  },
  { table: 'academy_users', select: adminRead, insert: only('admin'), update: only('admin'), delete: only('admin') },
  { table: 'academy_user_categories', select: adminRead, insert: only('admin'), update: nobody, delete: only('admin') },
  { table: 'academy_likes', select: adminRead, insert: nobody, update: nobody, delete: nobody },
  { table: 'operations_popup', select: adminRead, insert: nobody, update: only('admin'), delete: nobody },
  { table: 'trash_jobs', select: adminRead, insert: nobody, update: nobody, delete: nobody },
  { table: 'server_jobs', select: adminRead, insert: nobody, update: nobody, delete: nobody },
  // The Papelera: written only by the database (a deleted file's snapshot), changed only through its RPCs.
  { table: 'trashed_files', select: adminRead, insert: nobody, update: nobody, delete: nobody },
  // Enlaces compartidos: admins read them; every write goes through create/update/revoke_share_link, and
  // anonymous visitors reach a link only through open_share_link with its token (share-links.test.ts).
  { table: 'share_links', select: adminRead, insert: nobody, update: nobody, delete: nobody },
  { table: 'share_link_files', select: adminRead, insert: nobody, update: nobody, delete: nobody },
  {
    // Append-only: only the database's triggers write it.
    table: 'file_history',
    select: { admin: 'all', uploader: 'own', front: 'none', operations: 'none', anon: 'none' },
    insert: nobody,
    update: nobody,
    delete: nobody,
  },
];

type Row = Record<string, unknown>;

/** How to make a row of each table (as service role), a valid new row, a harmless change, and its key. */
interface Fixture {
  key: string[];
  create: (service: SupabaseClient, ownerId: string) => Promise<Row>;
  newRow: (ownerId: string) => Promise<Row>;
  patch: Row;
}

const ADMIN_ID = 'a0000000-0000-4000-8000-000000000001';
const UPLOADER_ID = 'a0000000-0000-4000-8000-000000000002';
const PUBLIC_COLLECTION = 'e0000000-0000-4000-8000-000000000001';
const uid = () => crypto.randomUUID();
let service: SupabaseClient;

async function insertAsService(table: string, row: Row): Promise<Row> {
  const { data, error } = await service.from(table).insert(row).select().single();
  if (error) throw new Error(`fixture ${table}: ${error.message}`);
  return data as Row;
}

const fileRow = (ownerId: string, extra: Row = {}): Row => {
  const id = uid();
  return {
    id,
    file_name: 'x.jpg',
    object_path: `${id}/x.jpg`,
    original_file_name: 'x.jpg',
    name_es: 'Prueba',
    name_en: 'Test',
    size: 10,
    uploader_id: ownerId,
    uploader_email: 'x@test.local',
    extension: 'jpg',
    published: false,
    processing: true,
    ...extra,
  };
};
const category = () => insertAsService('tag_categories', { name_es: 'Cat', name_en: 'Cat' });
const tag = async () => insertAsService('tags', { category_id: (await category()).id, name_es: 'T', name_en: 'T' });
const academyCategory = () => insertAsService('academy_categories', { name_es: 'C', name_en: 'C' });
const video = () =>
  insertAsService('academy_videos', {
    youtube_id: 'abcdefghijk',
    youtube_url: 'https://youtu.be/abcdefghijk',
    title: 'V',
  });
const academyUser = () => insertAsService('academy_users', { email: 'a@b.example' });
const shareLink = () => insertAsService('share_links', { name: 'Enlace', kind: 'files' });

const FIXTURES: Record<string, Fixture> = {
  staff: {
    key: ['user_id'],
    create: async () => ({ user_id: ADMIN_ID }),
    newRow: async () => ({ user_id: uid(), email: 'z@z.z', role: 'ADMIN' }),
    patch: { role: 'ADMIN' },
  },
  tag_categories: {
    key: ['id'],
    create: category,
    newRow: async () => ({ name_es: 'N', name_en: 'N' }),
    patch: { name_es: 'Cambiada' },
  },
  tags: {
    key: ['id'],
    create: tag,
    newRow: async () => ({ category_id: (await category()).id, name_es: 'N', name_en: 'N' }),
    patch: { name_es: 'Cambiada' },
  },
  files: {
    key: ['id'],
    create: (s, owner) => insertAsService('files', fileRow(owner)),
    newRow: async (owner) => fileRow(owner),
    patch: { name_es: 'Cambiado' },
  },
  file_tags: {
    key: ['file_id', 'tag_id'],
    create: async (_s, owner) =>
      insertAsService('file_tags', {
        file_id: (await insertAsService('files', fileRow(owner))).id,
        tag_id: (await tag()).id,
      }),
    newRow: async (owner) => ({
      file_id: (await insertAsService('files', fileRow(owner))).id,
      tag_id: (await tag()).id,
    }),
    patch: { tag_id: 'd0000000-0000-4000-8000-000000000001' },
  },
  file_metadata: {
    key: ['file_id'],
    create: async (_s, owner) =>
      insertAsService('file_metadata', {
        file_id: (await insertAsService('files', fileRow(owner))).id,
        camera_make: 'Canon',
      }),
    newRow: async (owner) => ({ file_id: (await insertAsService('files', fileRow(owner))).id }),
    patch: { camera_make: 'Nikon' },
  },
  collections: {
    key: ['id'],
    create: () => insertAsService('collections', { name: 'Col' }),
    newRow: async () => ({ name: 'Nueva' }),
    patch: { name: 'Cambiada' },
  },
  collection_files: {
    key: ['collection_id', 'file_id'],
    create: async (_s, owner) =>
      insertAsService('collection_files', {
        collection_id: (await insertAsService('collections', { name: 'C' })).id,
        file_id: (await insertAsService('files', fileRow(owner))).id,
      }),
    newRow: async (owner) => ({
      collection_id: (await insertAsService('collections', { name: 'C' })).id,
      file_id: (await insertAsService('files', fileRow(owner))).id,
    }),
    patch: { collection_id: PUBLIC_COLLECTION },
  },
  academy_categories: {
    key: ['id'],
    create: academyCategory,
    newRow: async () => ({ name_es: 'N', name_en: 'N' }),
    patch: { name_es: 'Cambiada' },
  },
  academy_videos: {
    key: ['id'],
    create: video,
    newRow: async () => ({ youtube_id: 'abcdefghijk', youtube_url: 'https://youtu.be/abcdefghijk', title: 'N' }),
    patch: { title: 'Cambiado' },
  },
  academy_video_categories: {
    key: ['video_id', 'category_id'],
    create: async () =>
      insertAsService('academy_video_categories', {
        video_id: (await video()).id,
        category_id: (await academyCategory()).id,
      }),
    newRow: async () => ({ video_id: (await video()).id, category_id: (await academyCategory()).id }),
    patch: { category_id: 'b0000000-0000-4000-8000-000000000001' },
  },
  academy_users: {
    key: ['id'],
    create: academyUser,
    newRow: async () => ({ email: 'n@n.example' }),
    patch: { city: 'Madrid' },
  },
  academy_user_categories: {
    key: ['user_id', 'category_id'],
    create: async () =>
      insertAsService('academy_user_categories', {
        user_id: (await academyUser()).id,
        category_id: (await academyCategory()).id,
      }),
    newRow: async () => ({ user_id: (await academyUser()).id, category_id: (await academyCategory()).id }),
    patch: { category_id: 'b0000000-0000-4000-8000-000000000003' },
  },
  academy_likes: {
    key: ['user_id', 'video_id'],
    create: async () =>
      insertAsService('academy_likes', { user_id: (await academyUser()).id, video_id: (await video()).id }),
    newRow: async () => ({ user_id: (await academyUser()).id, video_id: (await video()).id }),
    patch: { liked_at: new Date().toISOString() },
  },
  operations_popup: {
    key: ['id'],
    create: async () => ({ id: 1 }),
    newRow: async () => ({ id: 1 }),
    patch: { title: 'Probando' },
  },
  trash_jobs: {
    key: ['id'],
    create: () => insertAsService('trash_jobs', { file_id: uid(), object_path: 'a/b.jpg', trash_path: 'a/b.jpg' }),
    newRow: async () => ({ file_id: uid(), object_path: 'a/b.jpg', trash_path: 'a/b.jpg' }),
    patch: { pending: false },
  },
  file_history: {
    key: ['id'],
    // Adding a file is what writes its first history row.
    create: async (_s, owner) => {
      const file = await insertAsService('files', fileRow(owner));
      const { data, error } = await service.from('file_history').select('id').eq('file_id', file.id).single();
      if (error) throw new Error(`fixture file_history: ${error.message}`);
      return data as Row;
    },
    newRow: async () => ({ file_id: uid(), action: 'edited' }),
    patch: { action: 'deleted' },
  },
  trashed_files: {
    key: ['file_id'],
    // Deleting a file is what puts it in the Papelera.
    create: async (_s, owner) => {
      const file = await insertAsService('files', fileRow(owner, { processing: false }));
      const deleted = await service.from('files').delete().eq('id', file.id);
      if (deleted.error) throw new Error(`fixture trashed_files: ${deleted.error.message}`);
      const { data, error } = await service.from('trashed_files').select('*').eq('file_id', file.id).single();
      if (error) throw new Error(`fixture trashed_files: ${error.message}`);
      return data as Row;
    },
    newRow: async () => ({ file_id: uid(), name_es: 'x', object_path: 'a/b.jpg', file: {} }),
    patch: { name_es: 'Probando' },
  },
  share_links: {
    key: ['id'],
    create: shareLink,
    newRow: async () => ({ name: 'Nuevo', kind: 'files' }),
    patch: { revoked_at: new Date().toISOString() },
  },
  share_link_files: {
    key: ['link_id', 'file_id'],
    create: async (_s, owner) =>
      insertAsService('share_link_files', {
        link_id: (await shareLink()).id,
        file_id: (await insertAsService('files', fileRow(owner))).id,
      }),
    newRow: async (owner) => ({
      link_id: (await shareLink()).id,
      file_id: (await insertAsService('files', fileRow(owner))).id,
    }),
    patch: { file_id: uid() },
  },
  server_jobs: {
    key: ['id'],
    // Due in a far future, so the stack's worker leaves it alone.
    create: () =>
      insertAsService('server_jobs', {
        kind: 'update_feed',
        dedupe_key: `rls-matrix:${uid()}`,
        run_after: '2999-01-01T00:00:00Z',
      }),
    newRow: async () => ({
      kind: 'update_feed',
      dedupe_key: `rls-matrix:${uid()}`,
      run_after: '2999-01-01T00:00:00Z',
    }),
    patch: { state: 'done' },
  },
};

const clients = {} as Record<Role, SupabaseClient>;
const userIds = {} as Record<Role, string>;

async function signIn(email: string, password: string): Promise<SupabaseClient> {
  const supabase = client('anon');
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return supabase;
}

beforeAll(async () => {
  service = client('service_role');
  clients.admin = await signIn(seedAccounts.ADMIN.email, seedAccounts.ADMIN.password);
  clients.uploader = await signIn(seedAccounts.UPLOADER.email, seedAccounts.UPLOADER.password);
  clients.front = await signIn('front@mediateca.local', 'mediateca-front');
  clients.operations = await signIn('operations@mediateca.local', 'mediateca-operations');
  clients.anon = client('anon');
  userIds.admin = ADMIN_ID;
  userIds.uploader = UPLOADER_ID;
  userIds.front = 'a0000000-0000-4000-8000-000000000003';
  userIds.operations = 'a0000000-0000-4000-8000-000000000004';
  userIds.anon = ADMIN_ID;
  // So that admins have a trash job to read.
  await FIXTURES.trash_jobs!.create(service, ADMIN_ID);
  // And a file in the Papelera.
  await FIXTURES.trashed_files!.create(service, ADMIN_ID);
  // And a shared link with a file.
  await FIXTURES.share_link_files!.create(service, ADMIN_ID);
  // And embedded metadata of an admin's image and of the uploader's.
  await FIXTURES.file_metadata!.create(service, ADMIN_ID);
  await FIXTURES.file_metadata!.create(service, UPLOADER_ID);
});

const match = (row: Row, key: string[]) => Object.fromEntries(key.map((k) => [k, row[k]]));
/** Rows an uploader owns: for tables keyed by a file, fixtures are built on a file the actor uploaded. */
const ownerFor = (role: Role) => (role === 'uploader' ? UPLOADER_ID : ADMIN_ID);

describe.each(MATRIX)('$table', (tableCase) => {
  const fixture = FIXTURES[tableCase.table]!;

  it.each(ROLES)('select as %s', async (role) => {
    const expected = tableCase.select[role];
    const { data, error } = await clients[role].from(tableCase.table).select('*');
    if (expected === 'none') {
      expect(error?.code === '42501' || (error === null && data?.length === 0), `${role} should see nothing`).toBe(
        true,
      );
      return;
    }
    expect(error).toBeNull();
    const all = (await service.from(tableCase.table).select('*')).data ?? [];
    expect(data!.length).toBeGreaterThan(0);
    if (expected === 'all') expect(data!.length).toBe(all.length);
    else expect(data!.length).toBeLessThan(all.length);
  });

  it.each(ROLES)('insert as %s', async (role) => {
    const row = await fixture.newRow(ownerFor(role));
    const { error } = await clients[role].from(tableCase.table).insert(row);
    if (tableCase.insert[role]) expect(error).toBeNull();
    else expect(error, `${role} must not insert into ${tableCase.table}`).not.toBeNull();
  });

  it.each(ROLES)('update as %s', async (role) => {
    const row = await fixture.create(service, ownerFor(role));
    const { data, error } = await clients[role]
      .from(tableCase.table)
      .update(fixture.patch)
      .match(match(row, fixture.key))
      .select();
    if (tableCase.update[role]) {
      expect(error).toBeNull();
      expect(data).toHaveLength(1);
    } else {
      expect(error !== null || data?.length === 0, `${role} must not update ${tableCase.table}`).toBe(true);
    }
  });

  it.each(ROLES)('delete as %s', async (role) => {
    const row = await fixture.create(service, ownerFor(role));
    await clients[role].from(tableCase.table).delete().match(match(row, fixture.key));
    const { data } = await service.from(tableCase.table).select('*').match(match(row, fixture.key));
    if (tableCase.delete[role]) expect(data, `${role} should delete from ${tableCase.table}`).toHaveLength(0);
    else expect(data, `${role} must not delete from ${tableCase.table}`).toHaveLength(1);
  });
});

describe('every public table has RLS enabled', () => {
  it('finds no table in public without row level security', async () => {
    const db = await adminDb();
    try {
      const { rows } = await db.query<{ relname: string }>(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
      );
      expect(rows.map((r) => r.relname)).toEqual([]);
      const { rows: tables } = await db.query<{ relname: string }>(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'`,
      );
      // The matrix covers every table, so a new table cannot slip in untested.
      expect(tables.map((t) => t.relname).sort()).toEqual(MATRIX.map((m) => m.table).sort());
    } finally {
      await db.end();
    }
  });
});

type RpcCase = { rpc: string; args: () => Promise<Record<string, unknown>>; allowed: Writes };

const RPCS: RpcCase[] = [
  {
    rpc: 'publish_files',
    args: async () => ({ p_published: true, p_file_ids: [(await insertAsService('files', fileRow(UPLOADER_ID))).id] }),
    allowed: only('admin'),
  },
  {
    rpc: 'delete_files',
    args: async () => ({ p_file_ids: [(await insertAsService('files', fileRow(ADMIN_ID, { processing: false }))).id] }),
    allowed: only('admin'),
  },
  {
    rpc: 'add_files_to_collection',
    args: async () => ({
      p_collection_id: PUBLIC_COLLECTION,
      p_file_ids: [(await insertAsService('files', fileRow(ADMIN_ID))).id],
    }),
    allowed: only('admin'),
  },
  {
    rpc: 'remove_file_from_collection',
    args: async () => {
      const link = await FIXTURES.collection_files!.create(service, ADMIN_ID);
      return { p_collection_id: link.collection_id, p_file_id: link.file_id };
    },
    allowed: only('admin'),
  },
  {
    rpc: 'set_files_tags',
    args: async () => ({
      p_tag_ids: [(await tag()).id],
      p_file_ids: [(await insertAsService('files', fileRow(UPLOADER_ID))).id],
    }),
    allowed: only('admin', 'uploader'),
  },
  {
    rpc: 'add_files_tags',
    args: async () => ({
      p_tag_ids: [(await tag()).id],
      p_file_ids: [(await insertAsService('files', fileRow(UPLOADER_ID))).id],
    }),
    allowed: only('admin', 'uploader'),
  },
  {
    rpc: 'remove_files_tags',
    args: async () => ({
      p_tag_ids: [(await tag()).id],
      p_file_ids: [(await insertAsService('files', fileRow(UPLOADER_ID))).id],
    }),
    allowed: only('admin', 'uploader'),
  },
  {
    rpc: 'set_academy_video_categories',
    args: async () => ({ p_video_id: (await video()).id, p_category_ids: [] }),
    allowed: only('admin'),
  },
  {
    rpc: 'set_academy_user_categories',
    args: async () => ({ p_user_id: (await academyUser()).id, p_category_ids: [] }),
    allowed: only('admin'),
  },
  {
    rpc: 'restore_files',
    args: async () => ({ p_file_ids: [(await FIXTURES.trashed_files!.create(service, ADMIN_ID)).file_id] }),
    allowed: only('admin'),
  },
  {
    rpc: 'purge_trashed_files',
    args: async () => ({ p_file_ids: [(await FIXTURES.trashed_files!.create(service, ADMIN_ID)).file_id] }),
    allowed: only('admin'),
  },
  // The purge_trash server job's work: the service role's only.
  { rpc: 'purge_expired_trash', args: async () => ({}), allowed: nobody },
  {
    rpc: 'search_files',
    args: async () => ({ p_filter: {} }),
    allowed: only('admin', 'uploader', 'front', 'operations'),
  },
  {
    rpc: 'count_files',
    args: async () => ({ p_filter: {} }),
    allowed: only('admin', 'uploader', 'front', 'operations'),
  },
  {
    rpc: 'create_share_link',
    args: async () => ({
      p_name: 'Matriz',
      p_expires_at: null,
      p_file_ids: [(await insertAsService('files', fileRow(ADMIN_ID))).id],
    }),
    allowed: only('admin'),
  },
  {
    rpc: 'update_share_link',
    args: async () => ({
      p_id: (await shareLink()).id,
      p_name: 'Cambiado',
      p_expires_at: null,
      p_allow_downloads: false,
    }),
    allowed: only('admin'),
  },
  { rpc: 'revoke_share_link', args: async () => ({ p_id: (await shareLink()).id }), allowed: only('admin') },
  // Anyone may try a token (an unknown one just answers 'unavailable'); the media lookup is the service role's.
  {
    rpc: 'open_share_link',
    args: async () => ({ p_token: 'not-a-token' }),
    allowed: only('admin', 'uploader', 'front', 'operations', 'anon'),
  },
  {
    rpc: 'share_link_media',
    args: async () => ({ p_token: 'not-a-token', p_grant: null, p_file_id: uid(), p_original: true }),
    allowed: nobody,
  },
  { rpc: 'current_staff_role', args: async () => ({}), allowed: only('admin', 'uploader', 'front', 'operations') },
  { rpc: 'can_sign_in', args: async () => ({}), allowed: only('admin', 'uploader', 'front', 'operations') },
];

describe.each(RPCS)('rpc $rpc', (rpcCase) => {
  it.each(ROLES)('as %s', async (role) => {
    const { error } = await clients[role].rpc(rpcCase.rpc, await rpcCase.args());
    if (rpcCase.allowed[role]) expect(error).toBeNull();
    else expect(error, `${role} must not run ${rpcCase.rpc}`).not.toBeNull();
  });
});

describe('what each role is told about itself', () => {
  it('answers the login check per role', async () => {
    for (const [role, expected] of [
      ['admin', true],
      ['uploader', true],
      ['front', false],
      ['operations', false],
    ] as const) {
      expect((await clients[role].rpc('can_sign_in')).data).toBe(expected);
    }
    expect((await clients.front.rpc('current_staff_role')).data).toBe('FRONT');
  });

  it('lets FRONT and OPERATIONS find no file through search', async () => {
    expect((await clients.front.rpc('search_files', { p_filter: {} })).data).toEqual([]);
    expect((await clients.front.rpc('count_files', { p_filter: {} })).data).toBe(0);
  });
});
