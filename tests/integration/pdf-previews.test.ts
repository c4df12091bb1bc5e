import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import type pg from 'pg';
import { adminDb, client, signedInSeed } from '../helpers/clients.ts';
import { eventually, trashJobsDone } from '../helpers/checks.ts';
import { a4Pdf, makePdf } from '../helpers/pdf.ts';

/**
 * Documents are not blank tiles: post-processing renders a PDF's first page in the run-jobs edge
 * function (PDFium as WebAssembly) and stores it beside the file, as `preview_path`; the app shows it through
 * the same signed, transformed URLs as image thumbnails. A PDF that cannot be rendered keeps the extension tile
 * and is processed all the same; the picture follows its file through replacement, the Papelera and purging.
 * Real stack throughout: Storage, PostgREST, the job worker, Deno.
 */

let uploader: SupabaseClient;
let admin: SupabaseClient;
let service: SupabaseClient;
let db: pg.Client;

const RED = [0.85, 0.1, 0.1] as const;
const GREEN = [0.1, 0.6, 0.2] as const;

interface ProcessedFile {
  processing: boolean;
  processing_error: string | null;
  mime_type: string | null;
  checksum: string | null;
  preview_path: string | null;
}

/** Uploads `bytes` as the uploader would (object, then the file row) and returns where it went. */
async function uploadPdf(bytes: Buffer, name = 'documento.pdf') {
  const id = crypto.randomUUID();
  const objectPath = `${id}/${crypto.randomUUID()}.pdf`;
  const stored = await uploader.storage.from('media').upload(objectPath, bytes, { contentType: 'application/pdf' });
  expect(stored.error).toBeNull();
  const inserted = await uploader.from('files').insert({
    id,
    file_name: objectPath.split('/')[1]!,
    object_path: objectPath,
    original_file_name: name,
    name_es: name,
    name_en: name,
    extension: 'pdf',
  });
  expect(inserted.error).toBeNull();
  return { id, objectPath };
}

/** The file once post-processing finished, with its job recorded as done. */
async function processed(fileId: string, objectPath: string): Promise<ProcessedFile> {
  return eventually(async () => {
    const { rows } = await db.query<ProcessedFile & { job_done: boolean }>(
      `select f.processing, f.processing_error, f.mime_type, f.checksum, f.preview_path,
              not exists (select 1 from public.server_jobs j where j.file_id = f.id and j.kind = 'process_upload'
                                                              and j.state <> 'done') as job_done
         from public.files f where f.id = $1 and f.object_path = $2`,
      [fileId, objectPath],
    );
    const row = rows[0];
    if (!row || row.processing || !row.job_done) return undefined;
    const { job_done: _jobDone, ...file } = row;
    return file;
  });
}

async function exists(bucket: string, path: string) {
  return (await service.storage.from(bucket).exists(path)).data === true;
}

/** The preview through the app's own path: a signed URL with a transformation, as the caller may read it. */
async function previewAsShown(supabase: SupabaseClient, bucket: string, path: string) {
  const signed = await supabase.storage
    .from(bucket)
    .createSignedUrl(path, 60, { transform: { width: 400, height: 300, resize: 'contain' } });
  expect(signed.error).toBeNull();
  const response = await fetch(signed.data!.signedUrl);
  expect(response.status).toBe(200);
  return sharp(Buffer.from(await response.arrayBuffer()))
    .metadata()
    .then(({ width, height, format }) => ({ width, height, format }));
}

/** The stored picture's pixels: size, and the colour at a few points of the page. */
async function pixels(path: string) {
  const download = await service.storage.from('media').download(path);
  expect(download.error).toBeNull();
  const bytes = Buffer.from(await download.data!.arrayBuffer());
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const offset = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * info.channels;
    return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
  };
  const stats = await sharp(bytes).stats();
  return {
    format: (await sharp(bytes).metadata()).format,
    width: info.width,
    height: info.height,
    // The page's band across the top, the dark block in its middle, the blank margin near its bottom.
    band: at(0.5, 0.05),
    block: at(0.5, 0.5),
    margin: at(0.5, 0.95),
    spread: Math.max(...stats.channels.map((channel) => channel.stdev)),
  };
}

const near = (actual: number[], expected: readonly number[]) =>
  actual.every((value, index) => Math.abs(value - expected[index]! * 255) < 24);

beforeAll(async () => {
  uploader = await signedInSeed('UPLOADER');
  admin = await signedInSeed('ADMIN');
  service = client('service_role');
  db = await adminDb();
}, 120_000);

afterAll(async () => {
  await db?.end();
});

describe('a PDF gets a picture of its first page', () => {
  it('renders page 1 of an uploaded PDF beside it, bounded, and shows it through a signed transformed URL', async () => {
    const pdf = makePdf({
      pages: [
        { width: 595, height: 842, title: 'Carta de vinos', band: RED },
        { width: 595, height: 842, title: 'Segunda pagina', band: GREEN },
      ],
    });
    const { id, objectPath } = await uploadPdf(pdf, 'carta-de-vinos.pdf');
    const file = await processed(id, objectPath);
    expect(file).toMatchObject({
      processing_error: null,
      mime_type: 'application/pdf',
      preview_path: `${objectPath}.preview.jpg`,
    });

    const page = await pixels(file.preview_path!);
    // A4 at 1536 pixels on its long side, a JPEG, and the first page (red band), not the second (green).
    expect(page).toMatchObject({ format: 'jpeg', width: 1085, height: 1536 });
    expect(near(page.band, RED)).toBe(true);
    expect(near(page.block, [0.15, 0.15, 0.15])).toBe(true);
    expect(near(page.margin, [1, 1, 1])).toBe(true);
    expect(page.spread).toBeGreaterThan(40);

    // The uploader who owns the file reads it as the grid does: 400×300 contain keeps the page's shape.
    expect(await previewAsShown(uploader, 'media', file.preview_path!)).toEqual({
      width: 212,
      height: 300,
      format: 'jpeg',
    });
  }, 90_000);

  it('bounds a huge page to 1536 pixels on its longest side', async () => {
    const { id, objectPath } = await uploadPdf(
      makePdf({ pages: [{ width: 14400, height: 7200, title: 'Plano del resort', band: GREEN }] }),
    );
    const file = await processed(id, objectPath);
    const page = await pixels(file.preview_path!);
    expect(page).toMatchObject({ width: 1536, height: 768 });
    expect(near(page.band, GREEN)).toBe(true);
  }, 90_000);

  it.each([
    ['a corrupt PDF', a4Pdf('Cortado').subarray(0, 600)],
    ['an encrypted PDF', makePdf({ pages: [{ width: 595, height: 842, title: 'Secreto' }], encrypted: true })],
    [
      'a PDF over the 40 MiB limit',
      makePdf({ pages: [{ width: 595, height: 842, title: 'Grande' }], padding: 41 * 1024 * 1024 }),
    ],
  ])(
    'keeps the extension tile for %s, and processing completes',
    async (_label, bytes) => {
      const { id, objectPath } = await uploadPdf(Buffer.from(bytes));
      const file = await processed(id, objectPath);
      expect(file.processing_error).toBeNull();
      expect(file.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(file.preview_path).toBeNull();
      expect(await exists('media', `${objectPath}.preview.jpg`)).toBe(false);
    },
    120_000,
  );

  it('is not a picture of anything for other documents', async () => {
    const id = crypto.randomUUID();
    const objectPath = `${id}/${crypto.randomUUID()}.docx`;
    expect((await uploader.storage.from('media').upload(objectPath, 'PK\u0003\u0004 no es un docx')).error).toBeNull();
    expect(
      (
        await uploader.from('files').insert({
          id,
          file_name: objectPath.split('/')[1]!,
          object_path: objectPath,
          original_file_name: 'letra.docx',
          name_es: 'Letra',
          name_en: 'Letra',
          extension: 'docx',
        })
      ).error,
    ).toBeNull();
    expect((await processed(id, objectPath)).preview_path).toBeNull();
  }, 60_000);
});

describe('the preview is the server’s', () => {
  it('refuses it to an uploader and keeps it whatever an admin sends', async () => {
    const { id, objectPath } = await uploadPdf(a4Pdf('Propio'));
    const { preview_path } = await processed(id, objectPath);
    expect(preview_path).not.toBeNull();

    const forged = crypto.randomUUID();
    const asUploader = await uploader.from('files').insert({
      id: forged,
      file_name: 'x.pdf',
      object_path: `${forged}/x.pdf`,
      original_file_name: 'x.pdf',
      name_es: 'x',
      name_en: 'x',
      extension: 'pdf',
      preview_path: `${id}/robada.jpg`,
    });
    expect(asUploader.error?.code).toBe('42501');
    const edited = await uploader
      .from('files')
      .update({ preview_path: `${forged}/x.jpg` })
      .eq('id', id);
    expect(edited.error?.code).toBe('42501');

    expect((await admin.from('files').update({ preview_path: null }).eq('id', id)).error).toBeNull();
    const { rows } = await db.query(`select preview_path from public.files where id = $1`, [id]);
    expect(rows[0].preview_path).toBe(preview_path);
  }, 90_000);
});

describe('the preview follows its file', () => {
  it('is rendered again for a replacement, and the old one is removed', async () => {
    const { id, objectPath } = await uploadPdf(a4Pdf('Tarifas 2026', RED));
    const first = await processed(id, objectPath);
    expect(near((await pixels(first.preview_path!)).band, RED)).toBe(true);

    const newPath = `${id}/${crypto.randomUUID()}.pdf`;
    const second = a4Pdf('Tarifas 2027', GREEN);
    expect(
      (await uploader.storage.from('media').upload(newPath, second, { contentType: 'application/pdf' })).error,
    ).toBeNull();
    expect((await uploader.from('files').update({ object_path: newPath }).eq('id', id)).error).toBeNull();
    // At once: the old picture is no longer the file's.
    const { rows } = await db.query(`select preview_path from public.files where id = $1`, [id]);
    expect(rows[0].preview_path).toBeNull();

    const replaced = await processed(id, newPath);
    expect(replaced.preview_path).toBe(`${newPath}.preview.jpg`);
    expect(near((await pixels(replaced.preview_path!)).band, GREEN)).toBe(true);
    await trashJobsDone(db, [id]);
    expect(await exists('media', first.preview_path!)).toBe(false);
    expect(await exists('media', replaced.preview_path!)).toBe(true);
  }, 120_000);

  it('goes to the Papelera with its file, comes back on restore, and is purged with it', async () => {
    const { id, objectPath } = await uploadPdf(a4Pdf('Menu de otono'));
    const { preview_path: preview } = await processed(id, objectPath);
    expect(preview).not.toBeNull();

    expect((await admin.rpc('delete_files', { p_file_ids: [id] })).error).toBeNull();
    const trashed = await admin.from('trashed_files').select('object_path, preview_path').eq('file_id', id).single();
    expect(trashed.data).toEqual({ object_path: objectPath, preview_path: preview });
    await trashJobsDone(db, [id]);
    expect(await exists('media', preview!)).toBe(false);
    expect(await exists('trash', preview!)).toBe(true);
    // What the Papelera shows: the admin's signed thumbnail of the trashed picture.
    expect((await previewAsShown(admin, 'trash', preview!)).format).toBe('jpeg');

    expect((await admin.rpc('restore_files', { p_file_ids: [id] })).error).toBeNull();
    const restored = await db.query(`select preview_path from public.files where id = $1`, [id]);
    expect(restored.rows[0].preview_path).toBe(preview);
    await trashJobsDone(db, [id]);
    expect(await exists('media', preview!)).toBe(true);
    expect(await exists('trash', preview!)).toBe(false);
    expect(await previewAsShown(uploader, 'media', preview!)).toMatchObject({ height: 300 });

    expect((await admin.rpc('delete_files', { p_file_ids: [id] })).error).toBeNull();
    expect((await admin.rpc('purge_trashed_files', { p_file_ids: [id] })).data).toBe(1);
    await trashJobsDone(db, [id]);
    for (const bucket of ['media', 'trash']) {
      expect(await exists(bucket, preview!)).toBe(false);
      expect(await exists(bucket, objectPath)).toBe(false);
    }
  }, 120_000);
});
