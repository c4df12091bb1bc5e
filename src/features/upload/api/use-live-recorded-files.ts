import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { openRealtimeChannel } from '../../../lib/realtime-channel.ts';
import { uploadKeys } from './keys.ts';

/**
 * The server finishing post-processing of a file (it may take a while after the bytes land) refreshes what
 * the upload list says about it. Realtime delivers only the rows this user may read (RLS).
 */
export function useLiveRecordedFiles(active: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!active) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: uploadKeys.recordedFiles() });
    return openRealtimeChannel(
      `upload-recorded-files-${crypto.randomUUID()}`,
      (channel) => channel.on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'files' }, refresh),
      (status, realtime) => {
        // The join can race the session token: push it, then read once in case processing ended meanwhile.
        if (status === 'SUBSCRIBED') void realtime.setAuth().then(refresh);
      },
    );
  }, [active, queryClient]);
}
