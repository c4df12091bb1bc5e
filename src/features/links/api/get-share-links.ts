import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { shareLinksKey } from '../../../lib/links/share-links.ts';

const COLUMNS =
  'id, name, kind, file_count, expires_at, has_password, allow_downloads, revoked_at, created_by_email, created_at, views, downloads, collection:collections(name)';

export type ShareLinkState = 'active' | 'expired' | 'revoked';

/** Every link, newest first (RLS: admins only). */
export async function getShareLinks(signal: AbortSignal) {
  const { data, error } = await supabase
    .from('share_links')
    .select(COLUMNS)
    .order('created_at', { ascending: false })
    .abortSignal(signal);
  if (error) throw error;
  return data;
}

export type ShareLinkRow = Awaited<ReturnType<typeof getShareLinks>>[number];

export const shareLinksQueryOptions = () =>
  queryOptions({ queryKey: shareLinksKey, queryFn: ({ signal }) => getShareLinks(signal) });

/** Activo / Caducado / Revocado, as the database's analytics views decide it. */
export function shareLinkState(
  link: Pick<ShareLinkRow, 'revoked_at' | 'expires_at'>,
  now = Date.now(),
): ShareLinkState {
  if (link.revoked_at) return 'revoked';
  if (link.expires_at && new Date(link.expires_at).getTime() <= now) return 'expired';
  return 'active';
}

export const STATE_LABELS: Record<ShareLinkState, string> = {
  active: 'Activo',
  expired: 'Caducado',
  revoked: 'Revocado',
};
