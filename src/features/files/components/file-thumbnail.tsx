import { useQuery } from '@tanstack/react-query';
import type { FileRow } from '../api/search-files.ts';
import { mediaUrlQuery } from '../api/get-media-url.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

type ThumbnailFile = Pick<FileRow, 'is_image' | 'processing' | 'object_path' | 'extension'>;

/** A card's picture: a thumbnail for images, the extension for documents, a spinner while processing. */
export function FileThumbnail({ file }: { file: ThumbnailFile }) {
  const showImage = file.is_image === true && !file.processing;
  const { data: url, isError } = useQuery({ ...mediaUrlQuery(file.object_path, 'thumbnail'), enabled: showImage });
  if (file.processing) {
    return (
      <span className="file-tile">
        <Spinner size="small" label="Procesando" />
      </span>
    );
  }
  if (showImage && url && !isError) return <img className="file-tile file-thumbnail" src={url} alt="" loading="lazy" />;
  return (
    <span className={`file-tile ${showImage ? 'file-tile-loading' : 'file-tile-document'}`} aria-hidden="true">
      {showImage ? '' : (file.extension || '?').toUpperCase()}
    </span>
  );
}
