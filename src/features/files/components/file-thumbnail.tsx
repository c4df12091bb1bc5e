import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { deployment } from '../../../config/deployment.ts';
import type { FileRow } from '../api/search-files.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

const SIGNED_FOR_SECONDS = 3600;

/** A card's picture: the 300x225 thumbnail for images, the extension for documents, a spinner while processing. */
export function FileThumbnail({ file }: { file: FileRow }) {
  const showImage = file.is_image === true && !file.processing;
  const { data: url } = useQuery({
    queryKey: ['thumbnail', file.object_path, file.updated_at],
    enabled: showImage,
    staleTime: (SIGNED_FOR_SECONDS - 60) * 1000,
    queryFn: async () => {
      const { data, error } = await supabase.storage
        .from(deployment.storage.mediaBucket)
        .createSignedUrl(file.object_path, SIGNED_FOR_SECONDS, {
          transform: { width: 300, height: 225, resize: 'cover' },
        });
      if (error) throw error;
      return data.signedUrl;
    },
  });
  if (file.processing) {
    return (
      <span className="file-tile">
        <Spinner size="small" label="Procesando" />
      </span>
    );
  }
  if (showImage && url)
    return <img className="file-tile file-thumbnail" src={url} alt="" loading="lazy" width={300} height={225} />;
  return (
    <span className="file-tile" aria-hidden="true">
      {(file.extension || '?').toUpperCase()}
    </span>
  );
}
