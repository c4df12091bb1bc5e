import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSeed } from '../helpers/clients.ts';
import { insertFiles } from '../helpers/factories.ts';
import { seedAccounts } from '../helpers/seed.ts';
import { browserTimeZone, monthCursor } from '../../src/features/files/lib/timeline.ts';

/**
 * public.file_months: the timeline's months of the whole filtered result (not only loaded pages), with the
 * same filter and the same readable files as search_files, grouped in the caller's time zone; and the keyset
 * cursor the app builds from a month, which makes search_files start exactly at that month's first file.
 */

const marker = `mes${crypto.randomUUID().slice(0, 6)}`;
const lateMarker = `zona${crypto.randomUUID().slice(0, 6)}`;
const zone = browserTimeZone();

beforeAll(async () => {
  // March 2026: 3 images and 2 documents; January 2026: 4 images; one of the uploader's in February.
  await insertFiles(marker, 3, { extension: 'jpg', width: 800, height: 600, uploaded_on: '2026-03-10T10:00:00Z' });
  await insertFiles(marker, 2, { uploaded_on: '2026-03-20T10:00:00Z' });
  await insertFiles(marker, 4, { extension: 'jpg', width: 800, height: 600, uploaded_on: '2026-01-05T10:00:00Z' });
  await insertFiles(marker, 1, { uploaded_on: '2026-02-14T10:00:00Z', uploader_id: seedAccounts.UPLOADER.id });
  // Late on 31 March in UTC: already April in Madrid (UTC+2 then).
  await insertFiles(lateMarker, 1, { uploaded_on: '2026-03-31T23:30:00Z' });
});

describe('file_months', () => {
  it('counts the filtered files per month in the order of the sort', async () => {
    const admin = await signedInSeed('ADMIN');
    const newest = await admin.rpc('file_months', { p_filter: { query: marker }, p_time_zone: zone });
    expect(newest.error).toBeNull();
    expect(newest.data).toEqual([
      { month: '2026-03-01', files: 5 },
      { month: '2026-02-01', files: 1 },
      { month: '2026-01-01', files: 4 },
    ]);
    const images = await admin.rpc('file_months', {
      p_filter: { query: marker, type: 'image' },
      p_sort: 'uploadedOn_asc',
      p_time_zone: zone,
    });
    expect(images.data).toEqual([
      { month: '2026-01-01', files: 4 },
      { month: '2026-03-01', files: 3 },
    ]);
  });

  it('groups by the month in the time zone it is given', async () => {
    const admin = await signedInSeed('ADMIN');
    const utc = await admin.rpc('file_months', { p_filter: { query: lateMarker }, p_time_zone: 'UTC' });
    const madrid = await admin.rpc('file_months', { p_filter: { query: lateMarker }, p_time_zone: 'Europe/Madrid' });
    expect(utc.data).toEqual([{ month: '2026-03-01', files: 1 }]);
    expect(madrid.data).toEqual([{ month: '2026-04-01', files: 1 }]);
  });

  it('shows each person only the files they may read, and refuses a sort that is not by date', async () => {
    const uploader = await signedInSeed('UPLOADER');
    const own = await uploader.rpc('file_months', { p_filter: { query: marker }, p_time_zone: zone });
    expect(own.data).toEqual([{ month: '2026-02-01', files: 1 }]);
    const front = await signedInSeed('FRONT');
    const none = await front.rpc('file_months', { p_filter: { query: marker }, p_time_zone: zone });
    expect(none.error).toBeNull();
    expect(none.data).toEqual([]);
    const admin = await signedInSeed('ADMIN');
    const bySize = await admin.rpc('file_months', { p_filter: { query: marker }, p_sort: 'size_desc' });
    expect(bySize.error?.code).toBe('22023');
    expect(bySize.error?.message).toBe('Sort "size_desc" is not by date: it has no months');
  });

  it("starts search_files at a month's first file with the cursor the app builds, either way", async () => {
    const admin = await signedInSeed('ADMIN');
    for (const sort of ['uploadedOn_desc', 'uploadedOn_asc'] as const) {
      const cursor = monthCursor('2026-02', sort);
      const page = await admin
        .rpc('search_files', {
          p_filter: { query: marker },
          p_sort: sort,
          p_limit: 2,
          p_after_key: cursor.key,
          p_after_id: cursor.id,
        })
        .select('uploaded_on');
      expect(page.error).toBeNull();
      // February's one file first; then, newest first, January's; oldest first, March's.
      const rows = page.data as Array<{ uploaded_on: string }>;
      expect(rows.map((row) => new Date(row.uploaded_on).toISOString().slice(0, 7))).toEqual(
        sort === 'uploadedOn_desc' ? ['2026-02', '2026-01'] : ['2026-02', '2026-03'],
      );
    }
  });
});
