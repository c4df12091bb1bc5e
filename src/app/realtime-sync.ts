import { useEffect, useRef } from 'react';
import type { RealtimeChannel } from '@supabase/supabase-js';
import { useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { openRealtimeChannel } from '../lib/realtime-channel.ts';
import { setLiveChannelLost } from '../lib/connection-status.ts';
import { catalogueKeys } from '../lib/catalogue/keys.ts';
import { fileKeys } from '../features/files/api/keys.ts';
import { fileListUpdate, type ChangedFile } from '../features/files/api/list-cache.ts';
import type { FilePage } from '../features/files/api/search-files.ts';
import { refreshFileDetail, type DetailExpectation } from '../features/files/api/detail-cache.ts';
import { dropDeletedFiles } from '../features/files/api/after-file-change.ts';

type Row = Record<string, unknown>;

/** One postgres_changes event, as Realtime delivers it (a DELETE carries the primary key in `old`). */
export interface TableChange {
  table: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Row;
  old: Row;
}

export type CacheAction =
  | { kind: 'invalidate'; queryKey: QueryKey; exact?: boolean }
  | { kind: 'remove-from-list'; queryKey: QueryKey; id: string }
  | { kind: 'update-file-in-lists'; file: ChangedFile }
  | { kind: 'drop-deleted-file'; fileId: string }
  | { kind: 'refresh-file'; fileId: string; expect: DetailExpectation }
  | { kind: 'own-account-changed' };

/** The tables this app watches (all in the supabase_realtime publication). */
export const WATCHED_TABLES = [
  'files',
  'file_tags',
  'collection_files',
  'tags',
  'tag_categories',
  'collections',
  'staff',
] as const;

const idOf = (change: TableChange, column = 'id'): string | undefined => {
  const value = change.eventType === 'DELETE' ? change.old[column] : (change.new[column] ?? change.old[column]);
  return typeof value === 'string' ? value : undefined;
};

const fileListsAndCounts: CacheAction[] = [
  { kind: 'invalidate', queryKey: fileKeys.lists() },
  { kind: 'invalidate', queryKey: fileKeys.counts() },
];

/**
 * Caches that mention one file: the lists it may appear in, its detail and history (refreshed unless they
 * already show the change), and the selection summaries. An edited file's new row comes with the change, so
 * the lists are patched where that is enough.
 */
function fileActions(fileId: string | undefined, expect: DetailExpectation, editedFile?: ChangedFile): CacheAction[] {
  return [
    editedFile
      ? { kind: 'update-file-in-lists', file: editedFile }
      : { kind: 'invalidate', queryKey: fileKeys.lists() },
    // A patched row can still change how many files another filter matches (published, a flag).
    { kind: 'invalidate', queryKey: fileKeys.counts() },
    { kind: 'invalidate', queryKey: fileKeys.selections() },
    ...(fileId ? [{ kind: 'refresh-file', fileId, expect } as const] : []),
  ];
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** What a change to a file or one of its links says its detail must show. */
function detailExpectation(change: TableChange): DetailExpectation {
  if (change.table === 'files') {
    return change.eventType === 'DELETE' ? { kind: 'gone' } : { kind: 'row', updatedAt: text(change.new.updated_at) };
  }
  const column = change.table === 'file_tags' ? 'tag_id' : 'collection_id';
  const row = change.eventType === 'DELETE' ? change.old : change.new;
  return { kind: 'link', column, id: text(row[column]), linked: change.eventType !== 'DELETE' };
}

/**
 * A small catalogue list (tags, categories, collections): a deleted row is patched out of the cache, since
 * its id is all that is needed; inserts and updates refetch the list, whose rows Realtime does not shape as
 * PostgREST does.
 */
function catalogueActions(change: TableChange, queryKey: QueryKey): CacheAction[] {
  const id = idOf(change);
  return change.eventType === 'DELETE' && id
    ? [{ kind: 'remove-from-list', queryKey, id }]
    : [{ kind: 'invalidate', queryKey }];
}

/**
 * Which cached queries one change can affect, and nothing more: a change to one file refetches the file
 * lists and that file's detail, not every file ever opened.
 */
export function cacheActionsFor(change: TableChange, userId: string): CacheAction[] {
  switch (change.table) {
    case 'files': {
      const id = idOf(change);
      const edited = change.eventType === 'UPDATE' && id ? ({ ...change.new, id } as ChangedFile) : undefined;
      // Deleted (to the Papelera) by anyone: off the grid now, not after the refetch.
      const dropped = change.eventType === 'DELETE' && id ? [{ kind: 'drop-deleted-file', fileId: id } as const] : [];
      return [...dropped, ...fileActions(id, detailExpectation(change), edited)];
    }
    case 'file_tags':
    case 'collection_files':
      return fileActions(idOf(change, 'file_id'), detailExpectation(change));
    case 'tags':
      // A renamed or deleted tag changes what search and the tag filter match.
      return [
        ...catalogueActions(change, catalogueKeys.tags),
        ...(change.eventType === 'INSERT' ? [] : fileListsAndCounts),
      ];
    case 'tag_categories':
      // Deleting a category deletes its tags too.
      return [
        ...catalogueActions(change, catalogueKeys.tagCategories),
        ...(change.eventType === 'DELETE' ? [{ kind: 'invalidate', queryKey: catalogueKeys.tags } as const] : []),
      ];
    case 'collections':
      return [
        ...catalogueActions(change, catalogueKeys.collections),
        ...(change.eventType === 'DELETE' ? fileListsAndCounts : []),
      ];
    case 'staff':
      return idOf(change, 'user_id') === userId ? [{ kind: 'own-account-changed' }] : [];
    default:
      return [];
  }
}

function apply(queryClient: QueryClient, action: CacheAction, onOwnAccountChange: () => void) {
  switch (action.kind) {
    case 'refresh-file':
      refreshFileDetail(queryClient, action.fileId, [action.expect]);
      return;
    case 'invalidate':
      void queryClient.invalidateQueries({ queryKey: action.queryKey, exact: action.exact });
      return;
    case 'remove-from-list':
      queryClient.setQueryData<Array<{ id: string }>>(action.queryKey, (rows) =>
        rows?.filter((row) => row.id !== action.id),
      );
      return;
    case 'update-file-in-lists':
      for (const [queryKey, data] of queryClient.getQueriesData<InfiniteData<FilePage>>({
        queryKey: fileKeys.lists(),
      })) {
        const [, , filters, sort] = queryKey as ReturnType<typeof fileKeys.list>;
        // A list still loading may have read the row before this change: fetch it again.
        const update = data ? fileListUpdate(data, filters, sort, action.file) : ({ kind: 'refetch' } as const);
        if (update.kind === 'patch') queryClient.setQueryData(queryKey, update.data);
        if (update.kind === 'refetch') void queryClient.invalidateQueries({ queryKey, exact: true });
      }
      return;
    case 'drop-deleted-file':
      dropDeletedFiles(queryClient, [action.fileId]);
      return;
    case 'own-account-changed':
      onOwnAccountChange();
  }
}

/** How long the changes of one burst (a transaction's rows arrive as several messages) are gathered. */
export const CHANGE_BATCH_MS = 30;

/**
 * Applies the actions of a burst of changes once each: a save that writes the file's row, its tag links
 * and collections is one refetch of each cache it touches, not one per row.
 */
export function applyBatch(queryClient: QueryClient, actions: CacheAction[], onOwnAccountChange: () => void) {
  const invalidated = new Set<string>();
  const refreshes = new Map<string, DetailExpectation[]>();
  let ownAccount = false;
  for (const action of actions) {
    if (action.kind === 'invalidate') {
      const key = JSON.stringify([action.queryKey, action.exact ?? false]);
      if (invalidated.has(key)) continue;
      invalidated.add(key);
    }
    if (action.kind === 'refresh-file') {
      refreshes.set(action.fileId, [...(refreshes.get(action.fileId) ?? []), action.expect]);
      continue;
    }
    if (action.kind === 'own-account-changed') {
      ownAccount = true;
      continue;
    }
    apply(queryClient, action, onOwnAccountChange);
  }
  for (const [fileId, expectations] of refreshes) refreshFileDetail(queryClient, fileId, expectations);
  if (ownAccount) onOwnAccountChange();
}

/**
 * Refetches the queries under `queryKey` for changes the channel's join may have missed, without cancelling a
 * fetch already on its way: at sign-in the join lands while the first page is loading, and cancelling it
 * (invalidateQueries' default) pushed the first grid paint back by a whole request. A query that was still
 * fetching is refetched once that fetch has landed, since it may have read the database before the join.
 */
export function refetchAfterJoin(queryClient: QueryClient, queryKey: QueryKey) {
  const cache = queryClient.getQueryCache();
  const inFlight = new Set(cache.findAll({ queryKey, fetchStatus: 'fetching' }));
  void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
  if (inFlight.size === 0) return;
  const unsubscribe = cache.subscribe((event) => {
    if (!inFlight.has(event.query)) return;
    const landed = event.type === 'updated' && (event.action.type === 'success' || event.action.type === 'error');
    if (landed) void queryClient.invalidateQueries({ queryKey: event.query.queryKey, exact: true });
    if (landed || event.type === 'removed') inFlight.delete(event.query);
    if (inFlight.size === 0) unsubscribe();
  });
}

/**
 * The app's one realtime subscription, open while a member of staff is signed in: each change another person
 * makes updates exactly the cached queries it can affect, and a change to the signed-in account's role is
 * re-checked at once. Whenever the channel (re)joins, the watched caches are refetched and the role re-read:
 * changes made between the first fetch and the join, or while disconnected, would otherwise be missed.
 */
export function useRealtimeCacheSync(userId: string | null, onOwnAccountChange: () => void) {
  const queryClient = useQueryClient();
  const onOwnAccountChangeRef = useRef(onOwnAccountChange);
  useEffect(() => {
    onOwnAccountChangeRef.current = onOwnAccountChange;
  });

  useEffect(() => {
    if (!userId) return;
    const ownAccountChanged = () => onOwnAccountChangeRef.current();
    let pending: CacheAction[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      flushTimer = undefined;
      const actions = pending;
      pending = [];
      applyBatch(queryClient, actions, ownAccountChanged);
    };
    const watch = (channel: RealtimeChannel) =>
      WATCHED_TABLES.reduce(
        (watching, table) =>
          watching.on('postgres_changes', { event: '*', schema: 'public', table }, (payload) => {
            const change: TableChange = {
              table,
              eventType: payload.eventType,
              new: payload.new as Row,
              old: payload.old as Row,
            };
            pending.push(...cacheActionsFor(change, userId));
            flushTimer ??= setTimeout(flush, CHANGE_BATCH_MS);
          }),
        channel,
      );
    const close = openRealtimeChannel('app-cache-sync', watch, (status, realtime) => {
      // An errored or timed-out channel is rejoined by realtime-js with backoff; until then the app says so.
      setLiveChannelLost(status === 'CHANNEL_ERROR' || status === 'TIMED_OUT');
      if (status !== 'SUBSCRIBED') return;
      // The join can race the session token; pushing it makes Realtime apply this user's RLS, not anon's.
      void realtime.setAuth().then(() => {
        for (const queryKey of [fileKeys.all, ...Object.values(catalogueKeys)]) refetchAfterJoin(queryClient, queryKey);
        ownAccountChanged();
      });
    });
    return () => {
      clearTimeout(flushTimer);
      setLiveChannelLost(false);
      close();
    };
  }, [userId, queryClient]);
}
