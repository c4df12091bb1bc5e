import { describe, expect, it } from 'vitest';
import type { InfiniteData } from '@tanstack/react-query';
import { fileListUpdate, withoutFiles } from './list-cache.ts';
import type { FilePage, FileRow } from './search-files.ts';

const file = (id: string, extra: Partial<FileRow> = {}) =>
  ({
    id,
    name_es: `Archivo ${id}`,
    name_en: `File ${id}`,
    description_es: '',
    description_en: '',
    original_file_name: `${id}.jpg`,
    extension: 'jpg',
    is_image: true,
    size: 100,
    published: false,
    operations: false,
    processing: true,
    uploaded_on: '2026-11-20T10:00:00.000000+00:00',
    ...extra,
  }) as FileRow;

const list = (...pages: FileRow[][]): InfiniteData<FilePage> => ({
  pages: pages.map((files) => ({ files })),
  pageParams: pages.map((_, index) => index * 2),
});

describe('fileListUpdate', () => {
  it('patches a loaded file in place when nothing that places it changed, keeping is_image', () => {
    const data = list([file('a'), file('b')], [file('c')]);
    const update = fileListUpdate(data, {}, 'uploadedOn_desc', {
      id: 'c',
      processing: false,
      published: true,
      search_document: 'archivo c',
    });
    expect(update.kind).toBe('patch');
    if (update.kind !== 'patch') return;
    const patched = update.data.pages[1]!.files[0]!;
    expect(patched).toMatchObject({ id: 'c', processing: false, published: true, is_image: true });
    expect(patched).not.toHaveProperty('search_document');
    expect(update.data.pages[0]).toBe(data.pages[0]);
    expect(data.pages[1]!.files[0]!.processing).toBe(true);
  });

  it('refetches when the change can move the file within or out of the list', () => {
    const data = list([file('a'), file('b')]);
    expect(fileListUpdate(data, {}, 'size_desc', { id: 'a', size: 5 }).kind).toBe('refetch');
    expect(fileListUpdate(data, {}, 'nameEs_asc', { id: 'a', name_es: 'Zeta' }).kind).toBe('refetch');
    expect(fileListUpdate(data, { status: 'unpublished' }, 'uploadedOn_desc', { id: 'a', published: true }).kind).toBe(
      'refetch',
    );
    expect(fileListUpdate(data, { query: 'archivo' }, 'uploadedOn_desc', { id: 'a', name_en: 'Other' }).kind).toBe(
      'refetch',
    );
    expect(fileListUpdate(data, {}, 'uploadedOn_desc', { id: 'a', extension: 'pdf' }).kind).toBe('refetch');
  });

  it('patches when the changed column is one the list neither filters nor sorts on', () => {
    const data = list([file('a')]);
    expect(fileListUpdate(data, { status: 'unpublished' }, 'size_asc', { id: 'a', name_es: 'Nuevo' }).kind).toBe(
      'patch',
    );
    expect(fileListUpdate(data, {}, 'uploadedOn_asc', { id: 'a', size: 999, published: true }).kind).toBe('patch');
  });

  it('ignores a file not loaded in a list it cannot enter, and refetches one it might', () => {
    const data = list([file('a')]);
    expect(fileListUpdate(data, {}, 'uploadedOn_desc', { id: 'z', published: true }).kind).toBe('none');
    expect(fileListUpdate(data, { tagId: 't1' }, 'uploadedOn_asc', { id: 'z', name_es: 'x' }).kind).toBe('none');
    expect(fileListUpdate(data, { status: 'published' }, 'uploadedOn_desc', { id: 'z', published: true }).kind).toBe(
      'refetch',
    );
    expect(fileListUpdate(data, {}, 'size_desc', { id: 'z', size: 10 }).kind).toBe('refetch');
  });
});

describe('withoutFiles', () => {
  it('takes deleted files out of every loaded page at once', () => {
    const data = list([file('a'), file('b')], [file('c')]);
    expect(withoutFiles(data, new Set(['b', 'c'])).pages.map((page) => page.files.map((f) => f.id))).toEqual([
      ['a'],
      [],
    ]);
  });

  it('leaves a list that holds none of them as it was (no re-render)', () => {
    const data = list([file('a')]);
    expect(withoutFiles(data, new Set(['z']))).toBe(data);
  });
});
