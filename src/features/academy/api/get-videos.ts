import { queryOptions } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { academyKeys } from './keys.ts';

/** Videos newest first with their like totals and category ids. */
export async function getVideos(signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('academy_videos')
    .select('*, like_count, academy_video_categories(category_id)')
    .order('created_on', { ascending: false })
    .abortSignal(signal!);
  if (error) throw error;
  return data.map(({ academy_video_categories, ...video }) => ({
    ...video,
    categoryIds: academy_video_categories.map((link) => link.category_id),
  }));
}

export type AcademyVideo = Awaited<ReturnType<typeof getVideos>>[number];

export const videosQueryOptions = () =>
  queryOptions({ queryKey: academyKeys.videos(), queryFn: ({ signal }) => getVideos(signal) });
