import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { openRealtimeChannel } from '../../../lib/realtime-channel.ts';
import { academyKeys } from './keys.ts';

/**
 * While an Academy screen is open, follow other people's changes: a member's like (academy app) or another
 * admin's edit refetches the affected lists. The app-wide realtime sync does not watch academy tables.
 */
export function useAcademyLive() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refetch = (queryKey: readonly unknown[]) => () => void queryClient.invalidateQueries({ queryKey });
    // A topic of its own per mount: a remount (StrictMode, tab switches) never reuses a channel being removed.
    return openRealtimeChannel(`academy-admin-${crypto.randomUUID()}`, (channel) =>
      channel
        .on('postgres_changes', { event: '*', schema: 'public', table: 'academy_likes' }, refetch(academyKeys.videos()))
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'academy_videos' },
          refetch(academyKeys.videos()),
        )
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'academy_video_categories' },
          refetch(academyKeys.videos()),
        )
        .on('postgres_changes', { event: '*', schema: 'public', table: 'academy_categories' }, refetch(academyKeys.all))
        .on('postgres_changes', { event: '*', schema: 'public', table: 'academy_users' }, refetch(academyKeys.users())),
    );
  }, [queryClient]);
}
