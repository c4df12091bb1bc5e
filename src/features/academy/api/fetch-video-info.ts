import { useMutation } from '@tanstack/react-query';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/supabase.ts';

/** What the `video-info` edge function answers for a pasted URL. */
export interface VideoInfo {
  youtubeId: string;
  youtubeUrl: string;
  title: string;
  thumbnailUrl: string | null;
}

/** The function answers errors as `{ code, message }` with a Spanish message; surface that message. */
async function functionError(error: unknown): Promise<Error> {
  if (error instanceof FunctionsHttpError) {
    const body = (await (error.context as Response).json().catch(() => null)) as { message?: unknown } | null;
    if (body && typeof body.message === 'string') return new Error(body.message);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export async function fetchVideoInfo(url: string): Promise<VideoInfo> {
  const { data, error } = await supabase.functions.invoke<VideoInfo>('video-info', { body: { url } });
  if (error) throw await functionError(error);
  if (!data) throw new Error('No se encontró ningún vídeo con esa URL.');
  return data;
}

/** Its error is shown inline under the URL field (where the admin is looking), so no toast repeats it. */
export function useFetchVideoInfo() {
  return useMutation({ mutationFn: fetchVideoInfo });
}
