import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { openRealtimeChannel } from '../../../lib/realtime-channel.ts';
import { tagAdminKeys } from './keys.ts';

/** A bulk tag edit sends one event per link: recount once after the burst, not once per event. */
const RECOUNT_DELAY_MS = 400;

/**
 * While the Etiquetas screen is open, another admin tagging or untagging files changes the counts without a
 * reload: file_tags changes trigger one recount (the app-wide sync does not keep these counts).
 */
export function useLiveTagFileCounts() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const recount = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: tagAdminKeys.fileCounts() }),
        RECOUNT_DELAY_MS,
      );
    };
    const close = openRealtimeChannel(`tag-file-counts-${crypto.randomUUID()}`, (channel) =>
      channel
        .on('postgres_changes', { event: '*', schema: 'public', table: 'file_tags' }, recount)
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'files' }, recount),
    );
    return () => {
      clearTimeout(timer);
      close();
    };
  }, [queryClient]);
}
