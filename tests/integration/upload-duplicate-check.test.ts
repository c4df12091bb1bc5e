import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client, signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts } from '../helpers/seed.ts';

/**
 * What the upload screen asks before sending a file: which checksums (and, for large files, which sizes)
 * the library already has. Every file counts, whoever uploaded it; another person's file is said to exist
 * without its id or title.
 */
let admin: SupabaseClient;
let uploader: SupabaseClient;
const checksum = () => crypto.randomUUID().replaceAll('-', '').repeat(2);
const LARGE = 64 * 1024 * 1024;

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
});

describe('uploads_in_library', () => {
  it("names the caller's own copy, and only says that someone else's exists", async () => {
    const marker = `pre${crypto.randomUUID().slice(0, 6)}`;
    const [adminSum, ownSum, unknownSum] = [checksum(), checksum(), checksum()];
    const [adminsFile] = await insertFiles(marker, 1, { checksum: adminSum, name: () => 'Piscina del admin' });
    const [ownFile] = await insertFiles(marker, 1, {
      checksum: ownSum,
      uploader_id: seedAccounts.UPLOADER.id,
      name: () => 'Terraza propia',
    });

    const asked = await uploader.rpc('uploads_in_library', { p_checksums: [adminSum, ownSum, unknownSum] });
    expect(asked.error).toBeNull();
    expect(asked.data).toEqual(
      expect.arrayContaining([
        { checksum: adminSum, file_id: null, name_es: null },
        { checksum: ownSum, file_id: ownFile, name_es: 'Terraza propia' },
      ]),
    );
    expect(asked.data).toHaveLength(2);

    const byAdmin = await admin.rpc('uploads_in_library', { p_checksums: [adminSum] });
    expect(byAdmin.data).toEqual([{ checksum: adminSum, file_id: adminsFile, name_es: 'Piscina del admin' }]);
  });

  it('is for signed-in library staff only, and for at most 1000 checksums', async () => {
    const anonymous = await client('anon').rpc('uploads_in_library', { p_checksums: [checksum()] });
    expect(anonymous.error?.code).toBe('42501');
    const tooMany = await uploader.rpc('uploads_in_library', {
      p_checksums: Array.from({ length: 1001 }, checksum),
    });
    expect(tooMany.error?.code).toBe('22023');
  });
});

describe('upload_sizes_in_library', () => {
  it('answers which large sizes some file has, whoever uploaded it, and never small ones', async () => {
    const marker = `size${crypto.randomUUID().slice(0, 6)}`;
    const size = LARGE + Math.floor(Math.random() * 900_000_000);
    await insertFiles(marker, 1, { size });
    await insertFiles(marker, 1, { size: 5000 });
    const { data, error } = await uploader.rpc('upload_sizes_in_library', { p_sizes: [size, size + 1, 5000] });
    expect(error).toBeNull();
    expect(data).toEqual([size]);
    const anonymous = await client('anon').rpc('upload_sizes_in_library', { p_sizes: [size] });
    expect(anonymous.error?.code).toBe('42501');
  });
});
