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

/** The function's answer to a failed call: its Spanish message, and its code for the screen to act on. */
export class VideoInfoError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** Codes that say the provider cannot be asked now, so the admin may enter the video by hand. */
export const PROVIDER_OUT_OF_REACH = ['NOT_CONFIGURED', 'PROVIDER_UNAVAILABLE'];

/** The function answers errors as `{ code, message }` with a Spanish message; surface both. */
async function functionError(error: unknown): Promise<Error> {
  if (error instanceof FunctionsHttpError) {
    const body = (await (error.context as Response).json().catch(() => null)) as {
      message?: unknown;
      code?: unknown;
    } | null;
    if (body && typeof body.message === 'string') {
      return new VideoInfoError(body.message, typeof body.code === 'string' ? body.code : null);
    }
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
