import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { academyKeys } from './keys.ts';

export async function getVideo(videoId: string, signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('academy_videos')
    .select('*, academy_video_categories(category_id)')
    .eq('id', videoId)
    .abortSignal(signal!)
    .single();
  if (error) throw error;
  const { academy_video_categories, ...video } = data;
  return { ...video, categoryIds: academy_video_categories.map((link) => link.category_id) };
}

export const videoQueryOptions = (videoId: string) =>
  queryOptions({ queryKey: academyKeys.video(videoId), queryFn: ({ signal }) => getVideo(videoId, signal) });
