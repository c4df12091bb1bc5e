import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import sharp from 'sharp';
import { adminDb, signedInSeed } from '../helpers/clients.ts';
import { eventually } from '../helpers/checks.ts';

/**
 * Uploads served safely: whatever a user uploads — a page, an SVG with a script, bytes that lie
 * about their type — the API origin never hands a browser something it would run, and the library records
 * the type the bytes have, not the one declared.
 */
let uploader: SupabaseClient;
let db: pg.Client;

beforeAll(async () => {
  uploader = await signedInSeed('UPLOADER');
  db = await adminDb();
});

afterAll(async () => {
  await db?.end();
});

const PAGE = '<!doctype html><html><body><script>document.title = "pwned"</script>Hola</body></html>';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';

async function upload(extension: string, bytes: string | Buffer, contentType: string) {
  const fileId = crypto.randomUUID();
  const objectPath = `${fileId}/${crypto.randomUUID()}.${extension}`;
  const stored = await uploader.storage.from('media').upload(objectPath, bytes, { contentType });
  expect(stored.error).toBeNull();
  return { fileId, objectPath };
}

/** The object as a browser opening a signed link to it would receive it. */
async function openInBrowser(objectPath: string) {
  const signed = await uploader.storage.from('media').createSignedUrl(objectPath, 60);
  expect(signed.error).toBeNull();
  const response = await fetch(signed.data!.signedUrl);
  expect(response.status).toBe(200);
  return { headers: response.headers, body: await response.text() };
}

async function recordAndProcess(fileId: string, objectPath: string, extension: string) {
  const inserted = await uploader.from('files').insert({
    id: fileId,
    file_name: objectPath.split('/')[1]!,
    object_path: objectPath,
    original_file_name: `subido.${extension}`,
    name_es: 'subido',
    name_en: 'subido',
    extension,
  });
  expect(inserted.error).toBeNull();
  return eventually(async () => {
    const { rows } = await db.query<{ processing: boolean; mime_type: string; processing_error: string | null }>(
      'select processing, mime_type, processing_error from public.files where id = $1',
      [fileId],
    );
    return !rows[0]!.processing || rows[0]!.processing_error ? rows[0]! : undefined;
  });
}

describe('serving uploaded bytes', () => {
  it('answers an HTML page as plain text, never sniffable, as Supabase Storage does', async () => {
    const { objectPath } = await upload('html', PAGE, 'text/html');
    const { headers, body } = await openInBrowser(objectPath);
    expect(headers.get('content-type')).toBe('text/plain');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(body).toBe(PAGE);
  });

  it('keeps an SVG an image for <img>, but sandboxes it when opened as a document', async () => {
    const { objectPath } = await upload('svg', SVG, 'image/svg+xml');
    const { headers } = await openInBrowser(objectPath);
    expect(headers.get('content-type')).toBe('image/svg+xml');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp.split(';').map((part) => part.trim())).toEqual(
      expect.arrayContaining(['sandbox', "default-src 'none'"]),
    );
    expect(csp).not.toContain('script-src');
  });

  it('serves a page declared as a JPEG with the declared type and nosniff, so no browser renders it', async () => {
    const { objectPath } = await upload('jpg', PAGE, 'image/jpeg');
    const { headers } = await openInBrowser(objectPath);
    expect(headers.get('content-type')).toBe('image/jpeg');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('does not sandbox ordinary images and documents', async () => {
    const pdf = await upload('pdf', '%PDF-1.4\n%%EOF\n', 'application/pdf');
    const { headers } = await openInBrowser(pdf.objectPath);
    expect(headers.get('content-type')).toBe('application/pdf');
    expect(headers.get('content-security-policy')).toBeNull();
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the type the library records', () => {
  it('comes from the bytes: a PNG declared as a PDF is recorded as a PNG', async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#0084D8' } })
      .png()
      .toBuffer();
    const { fileId, objectPath } = await upload('pdf', png, 'application/pdf');
    expect(await recordAndProcess(fileId, objectPath, 'pdf')).toMatchObject({
      processing: false,
      mime_type: 'image/png',
    });
  });

  it('never records a page that claims to be a PDF as a PDF', async () => {
    const { fileId, objectPath } = await upload('pdf', PAGE, 'application/pdf');
    expect(await recordAndProcess(fileId, objectPath, 'pdf')).toMatchObject({
      processing: false,
      mime_type: 'application/octet-stream',
    });
  });

  it('keeps text types the bytes cannot contradict', async () => {
    const { fileId, objectPath } = await upload('svg', SVG, 'image/svg+xml');
    expect(await recordAndProcess(fileId, objectPath, 'svg')).toMatchObject({
      processing: false,
      mime_type: 'image/svg+xml',
    });
  });
});
