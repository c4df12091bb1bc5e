import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deployment } from '../../config/deployment.ts';
import { supabase } from '../supabase.ts';
import { notify } from '../notify.ts';
import type { Json } from '../../types/database.ts';

/** What a new link shares: chosen files (ids, or every file the files screen's filters match) or a collection. */
export type ShareTarget =
  | { kind: 'files'; fileIds: string[] }
  | { kind: 'filtered'; filter: Record<string, unknown> }
  | { kind: 'collection'; collectionId: string };

/** The query key of the Enlaces list, here so that creating a link from any screen refreshes it. */
export const shareLinksKey = ['share-links'] as const;

export const shareLinkUrl = (token: string) => `${deployment.domain.replace(/\/$/, '')}/s/${token}`;

/**
 * The database keeps only a hash of each token, so the full link exists once, in the browser that created it.
 * It is remembered here (this browser only) so 'Copiar enlace' on the Enlaces screen can copy it again.
 */
const STORAGE_KEY = 'mediateca.share-links';
export function rememberedShareLinkUrl(id: string): string | null {
  try {
    const known = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, string>;
    return known[id] ?? null;
  } catch {
    return null;
  }
}
function rememberShareLinkUrl(id: string, url: string) {
  try {
    const known = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, string>;
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...known, [id]: url }));
  } catch {
    // A browser without storage still shows the link once, in the dialog.
  }
}

export interface NewShareLink {
  target: ShareTarget;
  name: string;
  /** null: 'Sin caducidad'. */
  expiresAt: Date | null;
  password: string;
  allowDownloads: boolean;
}

export async function createShareLink(link: NewShareLink): Promise<{ id: string; url: string }> {
  const { target } = link;
  const { data, error } = await supabase.rpc('create_share_link', {
    p_name: link.name,
    p_expires_at: link.expiresAt?.toISOString() ?? (null as unknown as string),
    p_password: link.password === '' ? undefined : link.password,
    p_allow_downloads: link.allowDownloads,
    p_collection_id: target.kind === 'collection' ? target.collectionId : undefined,
    p_file_ids: target.kind === 'files' ? target.fileIds : undefined,
    p_filter: target.kind === 'filtered' ? (target.filter as Json) : undefined,
  });
  if (error) throw error;
  const created = data as { id: string; token: string };
  const url = shareLinkUrl(created.token);
  rememberShareLinkUrl(created.id, url);
  return { id: created.id, url };
}

export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createShareLink,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: shareLinksKey });
      notify.success('Enlace creado');
    },
    onError: (error) => notify.error(error, 'No se pudo crear el enlace'),
  });
}

/** 'Caducidad' choices: days from now, none, or a chosen date. */
export const EXPIRY_CHOICES = [
  { value: '1', label: '1 día' },
  { value: '7', label: '7 días' },
  { value: '30', label: '30 días' },
  { value: '90', label: '90 días' },
  { value: 'never', label: 'Sin caducidad' },
  { value: 'date', label: 'Una fecha' },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

const DAY_MS = 86_400_000;

/** The moment a choice ends the link: days from `now`, the end of a chosen day (local time), or never. */
export function expiryFrom(choice: ExpiryChoice, date: string, now = new Date()): Date | null {
  if (choice === 'never') return null;
  if (choice === 'date') return date ? new Date(`${date}T23:59:59`) : null;
  return new Date(now.getTime() + Number(choice) * DAY_MS);
}
