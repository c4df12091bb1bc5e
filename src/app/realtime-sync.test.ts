import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { applyBatch, cacheActionsFor, refetchAfterJoin, type TableChange } from './realtime-sync.ts';

const ME = 'a0000000-0000-4000-8000-000000000002';
const change = (table: string, eventType: TableChange['eventType'], row: Record<string, unknown>): TableChange =>
  eventType === 'DELETE' ? { table, eventType, new: {}, old: row } : { table, eventType, new: row, old: {} };

describe('cacheActionsFor', () => {
  it('updates the file lists from the edited row and refetches only the detail of the file that changed', () => {
    const edited = { id: 'f1', published: true, updated_at: '2026-11-25T10:00:00.123456+00:00' };
    expect(cacheActionsFor(change('files', 'UPDATE', edited), ME)).toEqual([
      { kind: 'update-file-in-lists', file: edited },
      { kind: 'invalidate', queryKey: ['files', 'count'] },
      { kind: 'invalidate', queryKey: ['files', 'selection'] },
      { kind: 'refresh-file', fileId: 'f1', expect: { kind: 'row', updatedAt: edited.updated_at } },
    ]);
  });

  it('refetches the file lists and counts when a file is added or removed', () => {
    for (const eventType of ['INSERT', 'DELETE'] as const) {
      const actions = cacheActionsFor(change('files', eventType, { id: 'f3' }), ME);
      expect(actions).toContainEqual({ kind: 'invalidate', queryKey: ['files', 'list'] });
      expect(actions).toContainEqual({ kind: 'invalidate', queryKey: ['files', 'count'] });
    }
  });

  it('takes a deleted file off the grid at once, before the lists are refetched', () => {
    const actions = cacheActionsFor(change('files', 'DELETE', { id: 'f4' }), ME);
    expect(actions[0]).toEqual({ kind: 'drop-deleted-file', fileId: 'f4' });
  });

  it('reads the file of a removed tag link from the primary key Realtime sends for a DELETE', () => {
    expect(cacheActionsFor(change('file_tags', 'DELETE', { file_id: 'f2', tag_id: 't1' }), ME)).toContainEqual({
      kind: 'refresh-file',
      fileId: 'f2',
      expect: { kind: 'link', column: 'tag_id', id: 't1', linked: false },
    });
  });

  it('patches a deleted tag out of the cached list and refetches on insert, without touching files', () => {
    expect(cacheActionsFor(change('tags', 'DELETE', { id: 't1' }), ME)).toEqual([
      { kind: 'remove-from-list', queryKey: ['tags'], id: 't1' },
      { kind: 'invalidate', queryKey: ['files', 'list'] },
      { kind: 'invalidate', queryKey: ['files', 'count'] },
    ]);
    expect(cacheActionsFor(change('tags', 'INSERT', { id: 't2', name_es: 'Playa' }), ME)).toEqual([
      { kind: 'invalidate', queryKey: ['tags'] },
    ]);
  });

  it('refetches the tags when their category is deleted', () => {
    expect(cacheActionsFor(change('tag_categories', 'DELETE', { id: 'c1' }), ME)).toEqual([
      { kind: 'remove-from-list', queryKey: ['tag-categories'], id: 'c1' },
      { kind: 'invalidate', queryKey: ['tags'] },
    ]);
  });

  it('re-checks the role only when the change is to the signed-in account', () => {
    expect(cacheActionsFor(change('staff', 'UPDATE', { user_id: ME, role: 'ADMIN' }), ME)).toEqual([
      { kind: 'own-account-changed' },
    ]);
    expect(cacheActionsFor(change('staff', 'DELETE', { user_id: ME }), ME)).toEqual([{ kind: 'own-account-changed' }]);
    expect(cacheActionsFor(change('staff', 'UPDATE', { user_id: 'someone-else', role: 'ADMIN' }), ME)).toEqual([]);
  });
});

describe('a burst of changes to one file', () => {
  const detail = (updatedAt: string, tagIds: string[]) => ({
    id: 'f1',
    updated_at: updatedAt,
    file_tags: tagIds.map((tag_id) => ({ tag_id })),
    collection_files: [],
  });
  const saved = '2026-11-25T10:00:00.123456+00:00';
  const burst = [
    change('files', 'UPDATE', { id: 'f1', updated_at: saved }),
    change('file_tags', 'DELETE', { file_id: 'f1', tag_id: 't1' }),
    change('file_tags', 'INSERT', { file_id: 'f1', tag_id: 't2' }),
    change('file_tags', 'INSERT', { file_id: 'f1', tag_id: 't3' }),
  ].flatMap((one) => cacheActionsFor(one, ME));

  function cachedDetail(data: ReturnType<typeof detail>) {
    const client = new QueryClient();
    client.setQueryData(['files', 'detail', 'f1'], data);
    client.setQueryData(['files', 'history', 'f1'], []);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    return { client, invalidate };
  }

  it('refetches nothing of the detail that already shows them (the save was refetched when it answered)', () => {
    const { client, invalidate } = cachedDetail(detail(saved, ['t2', 't3']));
    applyBatch(client, burst, () => {});
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).not.toContainEqual(['files', 'detail', 'f1']);
    expect(keys).not.toContainEqual(['files', 'history', 'f1']);
    expect(keys.filter((key) => JSON.stringify(key) === '["files","count"]')).toHaveLength(1);
  });

  it('refetches the detail and its history once when it shows an older version', () => {
    const { client, invalidate } = cachedDetail(detail('2026-11-25T09:00:00+00:00', ['t1']));
    applyBatch(client, burst, () => {});
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys.filter((key) => key === '["files","detail","f1"]')).toHaveLength(1);
    expect(keys.filter((key) => key === '["files","history","f1"]')).toHaveLength(1);
  });
});

describe('refetchAfterJoin', () => {
  /** A watched query whose fetches the test finishes by hand, recording which were aborted. */
  function watchedQuery() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetches: Array<{ signal: AbortSignal; land: (value: number) => void }> = [];
    const observer = new QueryObserver(client, {
      queryKey: ['files', 'list', {}],
      queryFn: ({ signal }) => new Promise<number>((land) => fetches.push({ signal, land })),
    });
    const stop = observer.subscribe(() => {});
    return { client, fetches, observer, stop };
  }

  it('lets the first page in flight land, then fetches it again (it may predate the join)', async () => {
    const { client, fetches, observer, stop } = watchedQuery();
    expect(fetches).toHaveLength(1);
    refetchAfterJoin(client, ['files']);
    await Promise.resolve();
    expect(fetches).toHaveLength(1);
    expect(fetches[0]!.signal.aborted).toBe(false);
    fetches[0]!.land(1);
    await vi.waitFor(() => expect(fetches).toHaveLength(2));
    expect(observer.getCurrentResult().data).toBe(1);
    fetches[1]!.land(2);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(2));
    // Settled: nothing is fetching, and no third fetch was started for the same join.
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(fetches).toHaveLength(2);
    stop();
  });

  it('refetches a query that is not fetching at once', async () => {
    const { client, fetches, observer, stop } = watchedQuery();
    fetches[0]!.land(1);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(1));
    refetchAfterJoin(client, ['files']);
    await vi.waitFor(() => expect(fetches).toHaveLength(2));
    stop();
  });
});
