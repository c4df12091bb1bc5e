import { useRef } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { mediaUrlQuery, type MediaVariant } from '../api/get-media-url.ts';
import { MEDIA_VARIANTS } from '../../../../supabase/functions/_shared/media-variants.ts';
import type { FileRow } from '../api/search-files.ts';
import { formatSize } from '../../../lib/format.ts';
import { paths } from '../../../config/paths.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { pictureOf } from '../../../lib/media/file-picture.ts';

type LightboxFile = Pick<
  FileRow,
  'id' | 'name_es' | 'object_path' | 'preview_path' | 'is_image' | 'size' | 'processing' | 'width' | 'height'
>;

/** A horizontal swipe at least this long (and longer than it is tall) turns the page; shorter is a tap. */
const SWIPE_PX = 50;

interface LightboxProps {
  files: readonly LightboxFile[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
}

/**
 * The large preview of an image (the 2048x1536 size), or of a PDF's first page, over the page: ← and
 * → go to the previous and next file of the list that has a picture, Esc closes and returns focus to where it
 * was (Radix Dialog). On a touch screen a swipe left or right goes to the next or previous one.
 */
export function Lightbox({ files, index, onIndexChange }: LightboxProps) {
  const file = index === null ? undefined : files[index];
  const step = (direction: 1 | -1) => {
    if (index === null) return;
    for (let next = index + direction; next >= 0 && next < files.length; next += direction) {
      const candidate = files[next];
      if (candidate && pictureOf(candidate)) return onIndexChange(next);
    }
  };
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  return (
    <Dialog.Root open={file !== undefined} onOpenChange={(open) => !open && onIndexChange(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="lightbox-overlay" />
        <Dialog.Content
          className="lightbox"
          aria-describedby={undefined}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') step(1);
            if (event.key === 'ArrowLeft') step(-1);
          }}
          onTouchStart={(event) => {
            const touch = event.touches[0];
            swipeStart.current = event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
          }}
          onTouchEnd={(event) => {
            const start = swipeStart.current;
            const touch = event.changedTouches[0];
            swipeStart.current = null;
            if (!start || !touch) return;
            const dx = touch.clientX - start.x;
            const dy = touch.clientY - start.y;
            if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy)) step(dx < 0 ? 1 : -1);
          }}
        >
          {file && <LightboxImage file={file} />}
          <div className="lightbox-bar">
            <Dialog.Title className="lightbox-title">{file?.name_es}</Dialog.Title>
            {file && <span className="lightbox-size">{formatSize(file.size)}</span>}
            {file && (
              <Link className="button" to={paths.file(file.id)} onClick={() => onIndexChange(null)}>
                Abrir ficha
              </Link>
            )}
            <button type="button" className="button" onClick={() => step(-1)} aria-label="Anterior">
              ←
            </button>
            <button type="button" className="button" onClick={() => step(1)} aria-label="Siguiente">
              →
            </button>
            <Dialog.Close className="button" aria-label="Cerrar">
              ✕
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The largest rendition no larger than the original: a transform fitted into a box bigger than the photo would
 * enlarge it, and a 1600 px photo drawn from its 2048 px rendition shows pixels it never had. A document's page
 * (no known size) and a photo of unknown size get the large one.
 */
function renditionFor(file: LightboxFile): MediaVariant {
  if (!file.is_image || !file.width || !file.height) return 'large';
  const fits = (variant: 'large' | 'preview') =>
    file.width! >= MEDIA_VARIANTS[variant].width || file.height! >= MEDIA_VARIANTS[variant].height;
  return fits('large') ? 'large' : 'preview';
}

function LightboxImage({ file }: { file: LightboxFile }) {
  const picture = pictureOf(file);
  const url = useQuery({ ...mediaUrlQuery(picture ?? '', renditionFor(file)), enabled: picture !== null });
  if (!picture || url.isError) return <p className="lightbox-message">No se pudo cargar la imagen.</p>;
  if (!url.data) return <Spinner label="Cargando imagen…" />;
  const alt = file.is_image ? file.name_es : `Primera página de ${file.name_es}`;
  // Never drawn above the photo's own pixels, even when the smallest rendition is larger than a small photo.
  const ownSize =
    file.is_image && file.width && file.height
      ? { maxWidth: `min(100%, ${file.width}px)`, maxHeight: `min(100%, ${file.height}px)` }
      : undefined;
  return (
    <img
      className={`lightbox-image${file.is_image ? '' : ' lightbox-page'}`}
      src={url.data}
      alt={alt}
      style={ownSize}
    />
  );
}
