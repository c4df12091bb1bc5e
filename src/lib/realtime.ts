import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { supabase } from './supabase.ts';
import { catalogueKeys } from '../features/catalogue/api/keys.ts';
import { fileKeys } from '../features/files/api/keys.ts';

/** Which cached queries a change to each watched table can affect. */
const AFFECTED_QUERIES: Record<string, ReadonlyArray<readonly string[]>> = {
  files: [fileKeys.all],
  file_tags: [fileKeys.all],
  collection_files: [fileKeys.all],
  tags: [catalogueKeys.tags, fileKeys.all],
  tag_categories: [catalogueKeys.tagCategories, catalogueKeys.tags],
  collections: [catalogueKeys.collections],
};

/**
 * The app's one realtime subscription: another member of staff's change invalidates exactly the queries
 * it can affect. Whenever the channel (re)joins, everything is refetched: changes made between the first
 * fetch and the join, or while disconnected, would otherwise be missed.
 */
export function useRealtimeCacheSync(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let channel = supabase.channel('app-cache-sync');
    for (const table of Object.keys(AFFECTED_QUERIES)) {
      channel = channel.on('postgres_changes', { event: '*', schema: 'public', table }, () => {
        for (const queryKey of AFFECTED_QUERIES[table]!) void queryClient.invalidateQueries({ queryKey });
      });
    }
    channel.subscribe((status) => {
      if (status !== 'SUBSCRIBED') return;
      // The join can race the session token; pushing it makes Realtime apply this user's RLS, not anon's.
      void supabase.realtime.setAuth().then(() => queryClient.invalidateQueries());
    });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [enabled, queryClient]);
}
