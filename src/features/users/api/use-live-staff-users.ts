import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { staffUserKeys } from './keys.ts';

/** Another admin adding, removing or re-roling someone refreshes the list on this screen. */
export function useLiveStaffUsers() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const channel = supabase
      .channel(`staff-users-${crypto.randomUUID()}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'staff' }, () => {
        void queryClient.invalidateQueries({ queryKey: staffUserKeys.all });
      })
      .subscribe();
    return () => void supabase.removeChannel(channel);
  }, [queryClient]);
}
