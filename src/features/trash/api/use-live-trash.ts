import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { trashKeys } from './keys.ts';

/** A file deleted, restored or purged in another tab or by another admin updates this Papelera. */
export function useLiveTrash() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const channel = supabase
      .channel(`trash-${crypto.randomUUID()}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'trashed_files' }, () => {
        void queryClient.invalidateQueries({ queryKey: trashKeys.lists() });
      })
      .subscribe();
    return () => void supabase.removeChannel(channel);
  }, [queryClient]);
}
