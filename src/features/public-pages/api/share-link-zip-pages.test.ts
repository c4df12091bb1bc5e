import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHARE_LINK_ZIP_PAGE, ZipDownloadError } from '../../../lib/zip/zip-entries.ts';
import { shareLinkZipPages } from './share-link-zip-pages.ts';

const ids = Array.from({ length: SHARE_LINK_ZIP_PAGE + 3 }, (_, i) => `file-${i}`);

function answering(status: number) {
  const asked: { fileIds: string[]; grant: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { fileIds: string[]; grant: string | null };
      asked.push(body);
      const entries = body.fileIds.map((id) => ({ id, name: `${id}.jpg`, size: 1, lastModified: '', url: id }));
      return new Response(JSON.stringify({ entries }), { status });
    }),
  );
  return asked;
}

afterEach(() => vi.unstubAllGlobals());

describe("a shared link's ZIP pages", () => {
  it('name the link’s files a page at a time, in order, with the grant, until the list ends', async () => {
    const asked = answering(200);
    const fetchPage = shareLinkZipPages('token', 'grant', ids, 'No disponible');
    const first = await fetchPage(null);
    expect(first.entries).toHaveLength(SHARE_LINK_ZIP_PAGE);
    expect(first.next).toBe(String(SHARE_LINK_ZIP_PAGE));
    const second = await fetchPage(first.next);
    expect(second.entries.map((entry) => entry.id)).toEqual(ids.slice(SHARE_LINK_ZIP_PAGE));
    expect(second.next).toBeNull();
    // Asked again with the same cursor (an expired URL), the same files come back.
    expect((await fetchPage(first.next)).entries).toEqual(second.entries);
    expect(asked.every((body) => body.grant === 'grant')).toBe(true);
  });

  it('say the link is unavailable when the function answers 404', async () => {
    answering(404);
    await expect(shareLinkZipPages('token', null, ids, 'No disponible')(null)).rejects.toEqual(
      new ZipDownloadError('No disponible'),
    );
  });
});
