import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { adminDb, client, signedInSeed, signedInUser } from '../helpers/clients.ts';
import { eventually } from '../helpers/checks.ts';
import { seedTags } from '../helpers/seed.ts';
import {
  IPTC_UTF8,
  exifSegment,
  heicWith,
  iptcDataset,
  iptcSegment,
  jpegSegment,
  jpegWith,
  pngExifChunk,
  pngWith,
  pngXmpChunk,
  xmpPacket,
  xmpSegment,
} from '../helpers/embedded-metadata.ts';

/**
 * Post-processing reads what a picture says about itself (EXIF, IPTC, XMP), stores it sanitised in
 * public.file_metadata and files.captured_at, and a new upload takes its title (headline, dc:title or IPTC
 * object name) and caption as its titles and Spanish description. Uploaded as the app does (Storage with the
 * uploader's token, then the file record); the fixtures are written byte by byte by tests/helpers/embedded-metadata.ts.
 */

let db: pg.Client;
let admin: SupabaseClient;
let uploader: SupabaseClient;
let otherUploader: SupabaseClient;

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf8 = (text: string) => Buffer.from(text, 'utf8');

interface UploadOptions {
  nameEs?: string;
  descriptionEs?: string;
}

/** What a browser declares for each kind of fixture. */
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', heic: 'image/heic' };

/** Stores `bytes` as `name` and writes the record as the upload screen does; the new file's id. */
async function upload(name: string, bytes: Buffer, options: UploadOptions = {}): Promise<string> {
  const fileId = crypto.randomUUID();
  const extension = name.split('.').pop()!;
  const objectPath = `${fileId}/${crypto.randomUUID()}.${extension}`;
  const stored = await uploader.storage
    .from('media')
    .upload(objectPath, bytes, { contentType: CONTENT_TYPES[extension] ?? 'image/jpeg' });
  if (stored.error) throw stored.error;
  const base = name.replace(/\.[^.]+$/, '');
  const { error } = await uploader.from('files').insert({
    id: fileId,
    file_name: objectPath.split('/')[1],
    object_path: objectPath,
    original_file_name: name,
    name_es: options.nameEs ?? base,
    name_en: base,
    description_es: options.descriptionEs ?? '',
    extension,
    published: false,
    b2b: true,
    processing: true,
  });
  if (error) throw error;
  return fileId;
}

/** Waits for the file's processing job to end; the job's state and the file's processing columns. */
async function processed(fileId: string) {
  return eventually(async () => {
    const { rows } = await db.query<{ job_state: string; processing: boolean; processing_error: string | null }>(
      `select j.state as job_state, f.processing, f.processing_error
         from public.files f join public.server_jobs j on j.file_id = f.id and j.kind = 'process_upload'
        where f.id = $1 and j.state in ('done', 'failed')`,
      [fileId],
    );
    return rows[0];
  });
}

async function metadataAs(supabase: SupabaseClient, fileId: string) {
  const { data, error } = await supabase.from('file_metadata').select('*').eq('file_id', fileId).maybeSingle();
  expect(error).toBeNull();
  return data as Record<string, unknown> | null;
}

async function fileAs(supabase: SupabaseClient, fileId: string) {
  const { data, error } = await supabase
    .from('files')
    .select('name_es, name_en, description_es, captured_at, processing, processing_error')
    .eq('id', fileId)
    .single();
  expect(error).toBeNull();
  return data as {
    name_es: string;
    name_en: string;
    description_es: string;
    captured_at: string | null;
    processing: boolean;
    processing_error: string | null;
  };
}

const DONE = { job_state: 'done', processing: false, processing_error: null };

beforeAll(async () => {
  db = await adminDb();
  admin = await signedInSeed('ADMIN');
  uploader = await signedInSeed('UPLOADER');
  const other = await signedInUser();
  await client('service_role').from('staff').insert({ user_id: other.user.id, email: other.email, role: 'UPLOADER' });
  otherUploader = other.client;
});

afterAll(async () => {
  await db?.end();
});

describe('a JPEG with EXIF, IPTC in Latin-1 and XMP', () => {
  let fileId = '';

  beforeAll(async () => {
    const jpeg = await jpegWith([
      exifSegment({
        make: 'Canon',
        model: 'Canon EOS R5',
        lens: 'RF24-70mm F2.8 L IS USM',
        orientation: 6,
        dateTimeOriginal: '2024:07:14 19:05:33',
        offsetTimeOriginal: '+02:00',
        gps: { latitude: 39.5696, longitude: -3.7038 },
      }),
      // No character-set record (1:90): an old agency file in Latin-1.
      iptcSegment([
        iptcDataset(2, 80, latin1('  José Ñúñez  ')),
        iptcDataset(2, 110, latin1('Agencia Ñandú')),
        iptcDataset(2, 116, latin1('© 2024 José Ñúñez')),
        iptcDataset(2, 25, latin1('piscína')),
        iptcDataset(2, 25, latin1('Atardecer')),
      ]),
      xmpSegment(
        xmpPacket({
          headline: 'Piscina infinita al atardecer',
          description: 'La piscina del hotel\ncon vistas al mar.',
          usageTerms: 'Solo web y redes sociales',
          subject: ['hotel', 'PISCINA'],
        }),
      ),
    ]);
    fileId = await upload('DSC_0042.jpg', jpeg);
    expect(await processed(fileId)).toEqual(DONE);
  });

  it('stores camera, lens, orientation, GPS and the texts, Latin-1 decoded, for its uploader', async () => {
    expect(await metadataAs(uploader, fileId)).toMatchObject({
      camera_make: 'Canon',
      camera_model: 'Canon EOS R5',
      lens: 'RF24-70mm F2.8 L IS USM',
      orientation: 6,
      creator: 'José Ñúñez',
      credit: 'Agencia Ñandú',
      copyright: '© 2024 José Ñúñez',
      usage_terms: 'Solo web y redes sociales',
      headline: 'Piscina infinita al atardecer',
      caption: 'La piscina del hotel\ncon vistas al mar.',
      keywords: ['hotel', 'PISCINA', 'piscína', 'Atardecer'],
      read_error: null,
    });
    const gps = await metadataAs(uploader, fileId);
    expect(gps!.gps_latitude as number).toBeCloseTo(39.5696, 4);
    expect(gps!.gps_longitude as number).toBeCloseTo(-3.7038, 4);
    // An admin reads it too (GPS included); another uploader, the public, nobody else.
    expect((await metadataAs(admin, fileId))!.gps_latitude).toBe(gps!.gps_latitude);
    expect(await metadataAs(otherUploader, fileId)).toBeNull();
    const anon = await client('anon').from('file_metadata').select('*').eq('file_id', fileId);
    expect(anon.error?.code).toBe('42501');
  });

  it('records the capture time with its offset, and the headline and caption as Spanish title and description', async () => {
    const file = await fileAs(uploader, fileId);
    expect(new Date(file.captured_at!).toISOString()).toBe('2024-07-14T17:05:33.000Z');
    expect(file).toMatchObject({
      name_es: 'Piscina infinita al atardecer',
      // The English title follows while untranslated, so the file still reads 'Sin traducir'.
      name_en: 'Piscina infinita al atardecer',
      description_es: 'La piscina del hotel\ncon vistas al mar.',
      processing: false,
      processing_error: null,
    });
  });

  it('suggests the existing tags its keywords name, accent- and case-insensitively, to staff who may read it', async () => {
    const category = (
      await db.query<{ id: string }>(`select category_id as id from public.tags where id = $1`, [seedTags.piscina])
    ).rows[0]!.id;
    const hotel = await admin
      .from('tags')
      .insert({ category_id: category, name_es: `Hotel`, name_en: `Hotel` })
      .select('id')
      .single();
    // An existing 'Hotel' from an earlier run is fine: the name is what matches.
    const hotelId =
      hotel.data?.id ??
      (await db.query<{ id: string }>(`select id from public.tags where name_es = 'Hotel' limit 1`)).rows[0]!.id;

    const suggested = await uploader.rpc('suggested_tags', { p_file_id: fileId });
    expect(suggested.error).toBeNull();
    const names = (suggested.data as Array<{ id: string; name_es: string }>).map((tag) => tag.id);
    expect(names).toContain(hotelId);
    expect(names).toContain(seedTags.piscina);
    // 'Atardecer' names no tag, and nothing unrelated is offered.
    expect(names).not.toContain(seedTags.spa);

    // A tag the file already carries is not suggested again.
    expect((await uploader.from('file_tags').insert({ file_id: fileId, tag_id: seedTags.piscina })).error).toBeNull();
    const after = await uploader.rpc('suggested_tags', { p_file_id: fileId });
    expect((after.data as Array<{ id: string }>).map((tag) => tag.id)).not.toContain(seedTags.piscina);

    // Someone who may not read the file gets nothing; the public may not call it.
    const other = await otherUploader.rpc('suggested_tags', { p_file_id: fileId });
    expect(other.error).toBeNull();
    expect(other.data).toEqual([]);
    const anon = await client('anon').rpc('suggested_tags', { p_file_id: fileId });
    expect(anon.error?.code).toBe('42501');
  });

  it('keeps captured_at server-owned: a client write does not stick', async () => {
    const before = (await fileAs(uploader, fileId)).captured_at;
    const edited = await uploader
      .from('files')
      .update({ captured_at: '2001-01-01T00:00:00Z', name_en: 'Pool at sunset' })
      .eq('id', fileId)
      .select('captured_at, name_en')
      .single();
    expect(edited.error).toBeNull();
    expect(edited.data).toEqual({ captured_at: before, name_en: 'Pool at sunset' });
    const byAdmin = await admin
      .from('files')
      .update({ captured_at: '2001-01-01T00:00:00Z' })
      .eq('id', fileId)
      .select('captured_at')
      .single();
    expect(byAdmin.data).toEqual({ captured_at: before });
  });
});

describe('what the metadata may not do', () => {
  it('takes the XMP dc:title, else the IPTC object name, as the title when there is no headline', async () => {
    const titled = await upload(
      'IMG_1001.jpg',
      await jpegWith([xmpSegment(xmpPacket({ title: 'Terraza del restaurante' }))]),
    );
    const named = await upload(
      'IMG_1002.jpg',
      await jpegWith([iptcSegment([IPTC_UTF8, iptcDataset(2, 5, Buffer.from('Suite nupcial', 'utf8'))])]),
    );
    const both = await upload(
      'IMG_1003.jpg',
      await jpegWith([
        iptcSegment([IPTC_UTF8, iptcDataset(2, 5, Buffer.from('Nombre del objeto', 'utf8'))]),
        xmpSegment(xmpPacket({ headline: 'Titular', title: 'Título' })),
      ]),
    );
    for (const id of [titled, named, both]) expect(await processed(id)).toEqual(DONE);
    expect(await fileAs(uploader, titled)).toMatchObject({
      name_es: 'Terraza del restaurante',
      name_en: 'Terraza del restaurante',
    });
    expect(await fileAs(uploader, named)).toMatchObject({ name_es: 'Suite nupcial', name_en: 'Suite nupcial' });
    expect(await fileAs(uploader, both)).toMatchObject({ name_es: 'Titular', name_en: 'Titular' });
  });

  it('never overwrites a title or a description someone already wrote', async () => {
    const jpeg = await jpegWith([
      xmpSegment(xmpPacket({ headline: 'Titular de la agencia', description: 'Pie de foto de la agencia' })),
    ]);
    const fileId = await upload('IMG_7.jpg', jpeg, { nameEs: 'Mi título', descriptionEs: 'Mi descripción' });
    expect(await processed(fileId)).toEqual(DONE);
    expect(await fileAs(uploader, fileId)).toMatchObject({ name_es: 'Mi título', description_es: 'Mi descripción' });
    expect(await metadataAs(uploader, fileId)).toMatchObject({
      headline: 'Titular de la agencia',
      caption: 'Pie de foto de la agencia',
    });
  });

  it('reads a replacement again (its capture date, its metadata) but never refills the title from it', async () => {
    const fileId = await upload(
      'IMG_9.jpg',
      await jpegWith([exifSegment({ dateTimeOriginal: '2022:03:01 08:00:00', offsetTimeOriginal: '+01:00' })]),
    );
    expect(await processed(fileId)).toEqual(DONE);
    expect(new Date((await fileAs(uploader, fileId)).captured_at!).toISOString()).toBe('2022-03-01T07:00:00.000Z');

    const replacement = `${fileId}/${crypto.randomUUID()}.jpg`;
    const bytes = await jpegWith([xmpSegment(xmpPacket({ headline: 'Titular del reemplazo' }))]);
    const stored = await uploader.storage.from('media').upload(replacement, bytes, { contentType: 'image/jpeg' });
    expect(stored.error).toBeNull();
    expect((await uploader.from('files').update({ object_path: replacement }).eq('id', fileId)).error).toBeNull();
    await eventually(async () => {
      const { rows } = await db.query(`select 1 from public.files where id = $1 and not processing`, [fileId]);
      return rows[0];
    });
    expect(await metadataAs(uploader, fileId)).toMatchObject({ headline: 'Titular del reemplazo' });
    expect(await fileAs(uploader, fileId)).toMatchObject({ name_es: 'IMG_9', captured_at: null });
  });

  it('drops absurd dates (1850, 2999) and cleans control characters and overlong texts', async () => {
    const old = await upload(
      'antigua.jpg',
      await jpegWith([exifSegment({ dateTimeOriginal: '1850:01:01 12:00:00', make: 'Da\u0007guerre\n' })]),
    );
    const future = await upload(
      'futura.jpg',
      await jpegWith([
        xmpSegment(
          xmpPacket({
            dateCreated: '2999-01-01T10:00:00+01:00',
            headline: `Titular\u0001 con\tcontrol${'x'.repeat(600)}`,
          }),
        ),
      ]),
    );
    expect(await processed(old)).toEqual(DONE);
    expect(await processed(future)).toEqual(DONE);
    expect((await fileAs(uploader, old)).captured_at).toBeNull();
    expect((await fileAs(uploader, future)).captured_at).toBeNull();
    expect(await metadataAs(uploader, old)).toMatchObject({ camera_make: 'Da guerre', read_error: null });
    const headline = (await metadataAs(uploader, future))!.headline as string;
    expect(headline.startsWith('Titular con control')).toBe(true);
    expect(headline).toHaveLength(500);
    expect((await fileAs(uploader, future)).name_es).toBe(headline);
  });

  it('with a damaged EXIF block: processed all the same, read_error set, the other blocks read', async () => {
    const damaged = jpegSegment(
      0xe1,
      Buffer.concat([
        latin1('Exif\0\0'),
        Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0xff, 0xff, 0xff, 0x00]),
        Buffer.alloc(64, 0xab),
      ]),
    );
    const fileId = await upload(
      'rota.jpg',
      await jpegWith([damaged, iptcSegment([iptcDataset(2, 105, latin1('Titular'))])]),
    );
    expect(await processed(fileId)).toEqual(DONE);
    expect(await metadataAs(uploader, fileId)).toMatchObject({
      read_error: 'EXIF: the block is damaged and gave no field',
      headline: 'Titular',
      camera_make: null,
    });
    expect(await fileAs(uploader, fileId)).toMatchObject({
      name_es: 'Titular',
      processing: false,
      processing_error: null,
    });
  });

  it('reads IPTC as UTF-8 when its character-set record says so', async () => {
    const fileId = await upload(
      'utf8.jpg',
      await jpegWith([
        iptcSegment([IPTC_UTF8, iptcDataset(2, 80, utf8('Zoë Ñúñez')), iptcDataset(2, 25, utf8('Señal'))]),
      ]),
    );
    expect(await processed(fileId)).toEqual(DONE);
    expect(await metadataAs(uploader, fileId)).toMatchObject({ creator: 'Zoë Ñúñez', keywords: ['Señal'] });
  });
});

describe('a PNG', () => {
  it('with eXIf and a 1 MB XMP packet in iTXt: read whole, the XMP date used when EXIF has none', async () => {
    const packet = xmpPacket({
      creator: 'Marta Ibáñez',
      headline: 'Vestíbulo',
      subject: ['Recepción'],
      dateCreated: '2023-12-31T23:30:00Z',
      padding: ' '.repeat(1024 * 1024),
    });
    expect(Buffer.byteLength(packet)).toBeGreaterThan(1024 * 1024);
    const png = await pngWith([pngExifChunk({ make: 'FUJIFILM', model: 'X-T5', orientation: 1 }), pngXmpChunk(packet)]);
    const fileId = await upload('vestibulo.png', png);
    expect(await processed(fileId)).toEqual(DONE);
    expect(await metadataAs(uploader, fileId)).toMatchObject({
      camera_make: 'FUJIFILM',
      camera_model: 'X-T5',
      orientation: 1,
      creator: 'Marta Ibáñez',
      headline: 'Vestíbulo',
      keywords: ['Recepción'],
      gps_latitude: null,
      read_error: null,
    });
    const file = await fileAs(uploader, fileId);
    expect(new Date(file.captured_at!).toISOString()).toBe('2023-12-31T23:30:00.000Z');
    expect(file.name_es).toBe('Vestíbulo');
  });

  it('without any metadata: a row with nothing in it and no error', async () => {
    const fileId = await upload('lisa.png', await pngWith([]));
    expect(await processed(fileId)).toEqual(DONE);
    expect(await metadataAs(uploader, fileId)).toMatchObject({ headline: null, keywords: [], read_error: null });
    expect(await fileAs(uploader, fileId)).toMatchObject({ name_es: 'lisa', captured_at: null });
  });
});

describe('a HEIC picture', () => {
  it('stays a document (no thumbnails, no dimensions) but its EXIF and XMP items are read', async () => {
    const heic = heicWith({
      exif: {
        make: 'Apple',
        model: 'iPhone 15 Pro',
        orientation: 6,
        dateTimeOriginal: '2025:05:03 09:41:07',
        offsetTimeOriginal: '+02:00',
        gps: { latitude: 28.1, longitude: -15.4 },
      },
      xmp: xmpPacket({ creator: 'Lucía Peña', headline: 'Desayuno en la terraza', subject: ['Terraza'] }),
    });
    const fileId = await upload('IMG_4321.heic', heic);
    expect(await processed(fileId)).toEqual(DONE);
    const { rows } = await db.query(
      'select is_image, mime_type, width, height, preview_path from public.files where id = $1',
      [fileId],
    );
    expect(rows[0]).toEqual({
      is_image: false,
      mime_type: 'image/heic',
      width: null,
      height: null,
      preview_path: null,
    });
    const metadata = await metadataAs(uploader, fileId);
    expect(metadata).toMatchObject({
      camera_make: 'Apple',
      camera_model: 'iPhone 15 Pro',
      orientation: 6,
      creator: 'Lucía Peña',
      headline: 'Desayuno en la terraza',
      keywords: ['Terraza'],
      read_error: null,
    });
    expect(metadata!.gps_latitude as number).toBeCloseTo(28.1, 4);
    expect(metadata!.gps_longitude as number).toBeCloseTo(-15.4, 4);
    const file = await fileAs(uploader, fileId);
    expect(new Date(file.captured_at!).toISOString()).toBe('2025-05-03T07:41:07.000Z');
    expect(file.name_es).toBe('Desayuno en la terraza');
  });

  it('named .heic but not HEIF inside: a document whose metadata is not read', async () => {
    const fileId = await upload('falsa.heic', Buffer.from('%PDF-1.4 not a picture at all', 'latin1'));
    expect(await processed(fileId)).toEqual(DONE);
    expect(await metadataAs(uploader, fileId)).toBeNull();
    expect((await fileAs(uploader, fileId)).captured_at).toBeNull();
  });
});
