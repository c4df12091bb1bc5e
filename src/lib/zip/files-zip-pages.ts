import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '../supabase.ts';
import { ZipDownloadError, type FetchZipPage, type ZipEntryPage } from './zip-entries.ts';

/** Either explicit ids or "every file the filters match", as the bulk actions take a selection. */
export type ZipSelection = { fileIds: string[] } | { filter: Record<string, unknown> };

/**
 * The pages of a 'Descargar ZIP' of a selection: the files-zip function lists what the signed-in caller may
 * read of it (their RLS), with signed URLs. Each call carries the session's current token, so a download
 * that outlasts an access token keeps going after the client refreshes it.
 */
export function filesZipPages(selection: ZipSelection): FetchZipPage {
  return async (after) => {
    const { data, error } = await supabase.functions.invoke<ZipEntryPage>('files-zip', {
      body: { selection, after },
    });
    if (error) {
      const answer =
        error instanceof FunctionsHttpError
          ? ((await (error.context as Response).json().catch(() => null)) as { message?: string } | null)
          : null;
      throw new ZipDownloadError(answer?.message ?? 'No se pudo preparar el ZIP. Inténtalo de nuevo.');
    }
    return data!;
  };
}
