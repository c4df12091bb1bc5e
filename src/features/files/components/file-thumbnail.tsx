import { useLayoutEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FileRow } from '../api/search-files.ts';
import { mediaUrlQuery } from '../api/get-media-url.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { pictureOf } from '../../../lib/media/file-picture.ts';

type ThumbnailFile = Pick<
  FileRow,
  'is_image' | 'processing' | 'processing_error' | 'object_path' | 'preview_path' | 'extension' | 'width' | 'height'
>;

/** Processing failed for good: the file waits to be replaced or deleted (it has no picture). */
export const hasFailedProcessing = (file: Pick<FileRow, 'processing' | 'processing_error'>) =>
  !file.processing && Boolean(file.processing_error);

/**
 * A card's picture: a thumbnail for images, the first page for PDFs (a sheet on the document tile; the card's
 * caption names the extension; an image never drawn larger than its own pixels), the extension for other documents and for PDFs without a preview, a spinner
 * while processing, and 'No se pudo procesar' with its reason when processing failed for good.
 */
export function FileThumbnail({ file }: { file: ThumbnailFile }) {
  const picture = pictureOf(file);
  const isPage = !file.is_image;
  const { data: url, isError } = useQuery({
    ...mediaUrlQuery(picture ?? '', isPage ? 'page' : 'thumbnail'),
    enabled: picture !== null,
  });
  if (hasFailedProcessing(file)) return <FailedTile reason={file.processing_error ?? ''} />;
  if (file.processing) {
    return (
      <span className="file-tile">
        <Spinner size="small" label="Procesando" />
      </span>
    );
  }
  if (picture && url && !isError) {
    if (!isPage) {
      // Never larger than the picture's own pixels: a small image sits at its size in the middle of its cell
      // (the cell keeps the row's height) instead of being blown up until it blurs.
      const ownSize = file.width && file.height ? { maxWidth: file.width, maxHeight: file.height } : undefined;
      return <img className="file-tile file-thumbnail" src={url} alt="" loading="lazy" style={ownSize} />;
    }
    return (
      <span className="file-tile file-tile-document file-tile-page">
        <img className="file-page" src={url} alt="" loading="lazy" />
      </span>
    );
  }
  const waiting = picture !== null && !isError;
  return (
    <span className={`file-tile ${waiting ? 'file-tile-loading' : 'file-tile-document'}`} aria-hidden="true">
      {waiting ? '' : (file.extension || '?').toUpperCase()}
    </span>
  );
}

/**
 * 'No se pudo procesar' and as many whole lines of its reason as the tile has room for (a narrow card on a phone
 * has few): a line is never cut through its middle, and the whole reason stays in the tooltip and the file's page.
 */
function FailedTile({ reason }: { reason: string }) {
  const tile = useRef<HTMLSpanElement>(null);
  const [lines, setLines] = useState(4);
  useLayoutEffect(() => {
    const element = tile.current;
    const text = element?.querySelector<HTMLElement>('.file-tile-failed-reason');
    const title = element?.querySelector<HTMLElement>('.file-tile-failed-title');
    if (!element || !text || !title) return;
    const measure = () => {
      const tileStyle = getComputedStyle(element);
      const room =
        element.clientHeight -
        parseFloat(tileStyle.paddingTop) -
        parseFloat(tileStyle.paddingBottom) -
        title.offsetHeight -
        parseFloat(tileStyle.rowGap || '0');
      const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 13;
      setLines(Math.max(0, Math.min(4, Math.floor(room / lineHeight))));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <span ref={tile} className="file-tile file-tile-failed" title={reason || undefined}>
      <span className="file-tile-failed-title">No se pudo procesar</span>
      {lines > 0 && (
        <span className="file-tile-failed-reason" style={{ WebkitLineClamp: lines }}>
          {reason}
        </span>
      )}
    </span>
  );
}
