import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { academyKeys } from './keys.ts';
import type { VideoInfo } from './fetch-video-info.ts';

export interface VideoFields {
  title: string;
  language: 'es' | 'en';
  categoryIds: string[];
}

/** Creates (videoId null, with the fetched info) or updates a video together with its categories. */
export async function saveVideo(videoId: string | null, fields: VideoFields, info?: VideoInfo) {
  const { data, error } = await supabase.rpc('save_academy_video', {
    p_id: videoId ?? undefined,
    // An update keeps the video's link; these only matter on creation.
    p_youtube_id: info?.youtubeId ?? '',
    p_youtube_url: info?.youtubeUrl ?? '',
    p_thumbnail_url: info?.thumbnailUrl ?? undefined,
    p_language: fields.language,
    p_title: fields.title,
    p_category_ids: fields.categoryIds,
  });
  if (error) throw error;
  return data;
}

export function useCreateVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, info }: { fields: VideoFields; info: VideoInfo }) => saveVideo(null, fields, info),
    onSuccess: async () => {
      notify.success('Vídeo creado');
      await queryClient.invalidateQueries({ queryKey: academyKeys.videos() });
    },
    onError: (error) => notify.error(error, 'No se pudo crear el vídeo.'),
  });
}

export function useUpdateVideo(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: VideoFields) => saveVideo(videoId, fields),
    onSuccess: async () => {
      notify.success('Vídeo guardado');
      await queryClient.invalidateQueries({ queryKey: academyKeys.videos() });
    },
    onError: (error) => notify.error(error, 'No se pudo guardar el vídeo.'),
  });
}
