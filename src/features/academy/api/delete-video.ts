import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { notify } from '../../../lib/notify.ts';
import { academyKeys } from './keys.ts';

export async function deleteVideo(videoId: string) {
  const { error } = await supabase.from('academy_videos').delete().eq('id', videoId);
  if (error) throw error;
}

export function useDeleteVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVideo,
    onSuccess: async () => {
      notify.success('Vídeo borrado');
      await queryClient.invalidateQueries({ queryKey: academyKeys.videos() });
    },
    onError: (error) => notify.error(error, 'No se pudo borrar el vídeo.'),
  });
}
