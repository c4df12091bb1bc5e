import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { openRealtimeChannel } from '../../../lib/realtime-channel.ts';
import { trashKeys } from './keys.ts';

/** A file deleted, restored or purged in another tab or by another admin updates this Papelera. */
export function useLiveTrash() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      openRealtimeChannel(`trash-${crypto.randomUUID()}`, (channel) =>
        channel.on('postgres_changes', { event: '*', schema: 'public', table: 'trashed_files' }, () => {
          void queryClient.invalidateQueries({ queryKey: trashKeys.lists() });
        }),
      ),
    [queryClient],
  );
}
