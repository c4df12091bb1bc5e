import * as Dialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { mediaUrlQuery } from '../api/get-media-url.ts';
import type { FileRow } from '../api/search-files.ts';
import { formatSize } from '../../../lib/format.ts';
import { paths } from '../../../config/paths.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { pictureOf } from '../../../lib/media/file-picture.ts';

type LightboxFile = Pick<
  FileRow,
  'id' | 'name_es' | 'object_path' | 'preview_path' | 'is_image' | 'size' | 'processing'
>;

interface LightboxProps {
  files: readonly LightboxFile[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
}

/**
 * The large preview of an image (the 2048x1536 size), or of a PDF's first page, over the page: ← and
 * → go to the previous and next file of the list that has a picture, Esc closes and returns focus to where it
 * was (Radix Dialog).
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

function LightboxImage({ file }: { file: LightboxFile }) {
  const picture = pictureOf(file);
  const url = useQuery({ ...mediaUrlQuery(picture ?? '', 'large'), enabled: picture !== null });
  if (!picture || url.isError) return <p className="lightbox-message">No se pudo cargar la imagen.</p>;
  if (!url.data) return <Spinner label="Cargando imagen…" />;
  const alt = file.is_image ? file.name_es : `Primera página de ${file.name_es}`;
  return <img className={`lightbox-image${file.is_image ? '' : ' lightbox-page'}`} src={url.data} alt={alt} />;
}
