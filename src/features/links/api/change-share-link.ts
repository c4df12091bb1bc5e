import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { shareLinksKey } from '../../../lib/links/share-links.ts';

export interface ShareLinkChanges {
  id: string;
  name: string;
  expiresAt: Date | null;
  allowDownloads: boolean;
  passwordAction: 'keep' | 'set' | 'remove';
  password: string;
}

export async function updateShareLink(changes: ShareLinkChanges) {
  const { error } = await supabase.rpc('update_share_link', {
    p_id: changes.id,
    p_name: changes.name,
    p_expires_at: changes.expiresAt?.toISOString() ?? (null as unknown as string),
    p_allow_downloads: changes.allowDownloads,
    p_password_action: changes.passwordAction,
    p_password: changes.passwordAction === 'set' ? changes.password : undefined,
  });
  if (error) throw error;
}

export function useUpdateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateShareLink,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: shareLinksKey });
      notify.success('Enlace guardado');
    },
    onError: (error) => notify.error(error, 'No se pudo guardar el enlace'),
  });
}

export async function revokeShareLink(id: string) {
  const { error } = await supabase.rpc('revoke_share_link', { p_id: id });
  if (error) throw error;
}

export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeShareLink,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: shareLinksKey });
      notify.success('Enlace revocado');
    },
    onError: (error) => notify.error(error, 'No se pudo revocar el enlace'),
  });
}
