import { env } from '../../config/env.ts';
import { supabase } from '../supabase.ts';

/** Either explicit ids or "every file the filters match", as the bulk actions take a selection. */
export type ZipSelection = { fileIds: string[] } | { filter: Record<string, unknown> };

const FRAME_NAME = 'mediateca-zip-download';

/**
 * 'Descargar ZIP' of a selection: submits a hidden form to the files-zip function into a hidden frame, so
 * the browser saves the streamed archive as a download (any size, never held in the page's memory).
 * A form cannot send an Authorization header, hence the access token as a form field (never in a URL).
 */
export async function downloadFilesZip(selection: ZipSelection): Promise<void> {
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  if (!data.session) throw new Error('Inicia sesión para descargar');

  let frame = document.querySelector<HTMLIFrameElement>(`iframe[name="${FRAME_NAME}"]`);
  if (!frame) {
    frame = document.createElement('iframe');
    frame.name = FRAME_NAME;
    frame.hidden = true;
    frame.title = 'Descarga ZIP';
    document.body.append(frame);
  }
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = `${env.VITE_SUPABASE_URL.replace(/\/$/, '')}/functions/v1/files-zip`;
  form.target = FRAME_NAME;
  form.hidden = true;
  for (const [name, value] of [
    ['access_token', data.session.access_token],
    ['selection', JSON.stringify(selection)],
  ] as const) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  form.remove();
}
