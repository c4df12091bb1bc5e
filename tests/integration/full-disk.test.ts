import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import * as tus from 'tus-js-client';
import type { SupabaseClient } from '@supabase/supabase-js';
import { clientFor } from '../helpers/clients.ts';
import { sha256 } from '../helpers/checks.ts';
import type { RunningStack } from '@mediateca/stack';
import { ownStackHome } from '../helpers/own-stack.ts';
import { spanishError } from '../../src/lib/errors.ts';

/**
 * A full disk during uploads, for real: the stack's object storage lives on a 48 MB tmpfs, and
 * uploads larger than what is left fail with a clear error (507 from Storage, a Spanish sentence in the app),
 * leave no object row and no visible object, and the library already stored stays intact and usable.
 * Mounting needs root with CAP_SYS_ADMIN, which this project's machines (and CI) have.
 */
const MB = 1024 * 1024;
let home: Awaited<ReturnType<typeof ownStackHome>>;
let storageDir: string;
let stack: RunningStack | undefined;
let service: SupabaseClient;

async function objectRows(names: string[]) {
  const db = new pg.Client({ connectionString: stack!.adminDbUrl });
  await db.connect();
  try {
    return (await db.query('select name from storage.objects where name = any($1)', [names])).rows;
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  home = await ownStackHome('mediateca-full-disk-');
  storageDir = path.join(home.dataDir, 'storage');
  await mkdir(storageDir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', storageDir]);
  stack = await home.start({ seed: false, jobWorker: false });
  service = clientFor(stack.apiUrl, stack.serviceRoleKey);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  execFileSync('umount', [storageDir]);
  await home.remove();
});

describe('uploads when the disk fills up', () => {
  it('refuses with a clear error, keeps no partial object, and the library stays intact', async () => {
    const kept = randomBytes(4 * MB);
    expect((await service.storage.from('media').upload('biblioteca/kept.bin', kept)).error).toBeNull();

    // A plain upload bigger than the space left.
    const plain = await service.storage.from('media').upload('biblioteca/too-big.bin', randomBytes(60 * MB));
    expect(plain.error).toMatchObject({ statusCode: '507', message: 'There is no space left to store the object' });
    expect(spanishError(plain.error)).toBe(
      'No queda espacio en el servidor para guardar el archivo. Avisa a un administrador.',
    );

    // A resumable upload that runs out of space half-way.
    const big = randomBytes(64 * MB);
    let upload: tus.Upload | undefined;
    const failure = await new Promise<Error>((resolve, reject) => {
      upload = new tus.Upload(big, {
        endpoint: `${stack!.apiUrl}/storage/v1/upload/resumable`,
        headers: { authorization: `Bearer ${stack!.serviceRoleKey}` },
        metadata: { bucketName: 'media', objectName: 'biblioteca/resumable.bin' },
        chunkSize: 6 * MB,
        retryDelays: [],
        onError: resolve,
        onSuccess: () => reject(new Error('a 64 MB upload cannot fit in 48 MB')),
      });
      upload.start();
    });
    expect(failure.message).toMatch(/response code: 507/);
    expect(spanishError(failure)).toBe(
      'No queda espacio en el servidor para guardar el archivo. Avisa a un administrador.',
    );

    // Nothing half-stored is visible: no rows, no listing, no download.
    expect(await objectRows(['biblioteca/too-big.bin', 'biblioteca/resumable.bin'])).toEqual([]);
    const listed = await service.storage.from('media').list('biblioteca');
    expect(listed.data!.map((o) => o.name)).toEqual(['kept.bin']);
    expect((await service.storage.from('media').download('biblioteca/resumable.bin')).error).toMatchObject({
      status: 400,
    });

    // The library is intact, and once the abandoned upload is cancelled there is room again.
    const read = await service.storage.from('media').download('biblioteca/kept.bin');
    expect(sha256(new Uint8Array(await read.data!.arrayBuffer()))).toBe(sha256(kept));
    await tus.Upload.terminate(upload!.url!, { headers: { authorization: `Bearer ${stack!.serviceRoleKey}` } });
    const small = randomBytes(2 * MB);
    expect((await service.storage.from('media').upload('biblioteca/after.bin', small)).error).toBeNull();
    const after = await service.storage.from('media').download('biblioteca/after.bin');
    expect(sha256(new Uint8Array(await after.data!.arrayBuffer()))).toBe(sha256(small));
  }, 120_000);
});
