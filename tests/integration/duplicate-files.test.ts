import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { client, signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';

/**
 * Duplicates: a file whose sha256 (written by post-processing) matches another live file points at
 * the earliest one; the 'Duplicados' filter lists them; nothing is refused, and clients cannot set the flag.
 */
let admin: SupabaseClient;
const service = () => client('service_role');

beforeAll(async () => {
  admin = await signedInSeed('ADMIN');
});

const checksum = () => crypto.randomUUID().replaceAll('-', '').repeat(2);

describe('duplicate files', () => {
  it('points a file with the same bytes at the earliest copy and lists it under Duplicados', async () => {
    const marker = `dup${crypto.randomUUID().slice(0, 6)}`;
    const sum = checksum();
    const [first] = await insertFiles(marker, 1, { uploaded_on: '2026-01-01T00:00:00Z' });
    const [second] = await insertFiles(marker, 1, { uploaded_on: '2026-02-01T00:00:00Z' });
    const [unique] = await insertFiles(marker, 1);
    // What post-processing does once it has hashed each object.
    for (const [id, value] of [
      [first, sum],
      [second, sum],
      [unique, checksum()],
    ] as const) {
      expect((await service().from('files').update({ checksum: value }).eq('id', id!)).error).toBeNull();
    }
    const rows = await service().from('files').select('id, duplicate_of').in('id', [first, second, unique]);
    const byId = Object.fromEntries(rows.data!.map((row) => [row.id, row.duplicate_of]));
    expect(byId).toEqual({ [first!]: null, [second!]: first, [unique!]: null });

    const { data } = await admin.rpc('search_files', {
      p_filter: { query: marker, duplicates: 'only' },
      p_limit: 10,
    });
    expect((data as Array<{ id: string }>).map((file) => file.id)).toEqual([second]);
  });

  it('recomputes the flag from the checksum whatever a client sends', async () => {
    const [a] = await insertFiles(`dupc${crypto.randomUUID().slice(0, 6)}`, 1);
    const [b] = await insertFiles(`dupc${crypto.randomUUID().slice(0, 6)}`, 1);
    const forged = await admin.from('files').update({ duplicate_of: a }).eq('id', b!).select('duplicate_of').single();
    expect(forged.error).toBeNull();
    expect(forged.data!.duplicate_of).toBeNull();
  });
});
