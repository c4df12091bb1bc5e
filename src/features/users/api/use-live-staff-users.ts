import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { openRealtimeChannel } from '../../../lib/realtime-channel.ts';
import { staffUserKeys } from './keys.ts';

/** Another admin adding, removing or re-roling someone refreshes the list on this screen. */
export function useLiveStaffUsers() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      openRealtimeChannel(`staff-users-${crypto.randomUUID()}`, (channel) =>
        channel.on('postgres_changes', { event: '*', schema: 'public', table: 'staff' }, () => {
          void queryClient.invalidateQueries({ queryKey: staffUserKeys.all });
        }),
      ),
    [queryClient],
  );
}
