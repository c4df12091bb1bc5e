import { useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { PublicFile } from '../api/schemas.ts';
import type { MediaUrls } from '../lib/media-url.ts';
import { texts, type Language } from '../lib/language.ts';
import { formatSize } from '../../../lib/format.ts';
import { creditLine } from '../../../lib/credit-line.ts';

interface SharedGridProps {
  files: readonly PublicFile[];
  urls: MediaUrls;
  allowDownloads: boolean;
  language: Language;
}

const title = (file: PublicFile, language: Language) => (language === 'en' ? file.nameEn : file.nameEs);

/**
 * The shared files as cards (400×300 renders), 'Descargar' under each when downloads are allowed, and the
 * lightbox with the 2048 px render (← → move between pictures, Esc closes and returns focus).
 */
export function SharedGrid({ files, urls, allowDownloads, language }: SharedGridProps) {
  const t = texts[language];
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <ul className="share-grid">
        {files.map((file, index) => {
          const name = title(file, language);
          const credit = creditLine(file);
          return (
            <li key={file.id} className="share-card">
              {file.isImage ? (
                <button
                  type="button"
                  className="share-card-picture"
                  aria-label={`${t.openLarge}: ${name}`}
                  onClick={() => setOpen(index)}
                >
                  <img src={urls.thumbnail(file.id)} alt="" width={400} height={300} loading="lazy" />
                </button>
              ) : (
                <span className="share-card-tile" aria-hidden="true">
                  {(file.extension || '?').toUpperCase()}
                </span>
              )}
              <span className="share-card-name clamp-2" title={name}>
                {name}
              </span>
              {credit && (
                <span className="share-card-credit" title={credit}>
                  {credit}
                </span>
              )}
              <span className="share-card-meta">
                <span>{formatSize(file.size)}</span>
                {allowDownloads && (
                  <a
                    className="button button-small"
                    href={urls.original(file.id)}
                    download
                    aria-label={`${t.download}: ${name}`}
                  >
                    {t.download}
                  </a>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      <SharedLightbox files={files} urls={urls} index={open} onIndexChange={setOpen} language={language} />
    </>
  );
}

function SharedLightbox({
  files,
  urls,
  index,
  onIndexChange,
  language,
}: {
  files: readonly PublicFile[];
  urls: MediaUrls;
  index: number | null;
  onIndexChange: (index: number | null) => void;
  language: Language;
}) {
  const t = texts[language];
  const file = index === null ? undefined : files[index];
  const step = (direction: 1 | -1) => {
    if (index === null) return;
    for (let next = index + direction; next >= 0 && next < files.length; next += direction) {
      if (files[next]?.isImage) return onIndexChange(next);
    }
  };
  const description = file && (language === 'en' ? file.descriptionEn : file.descriptionEs);
  const credit = file && creditLine(file);
  return (
    <Dialog.Root open={file !== undefined} onOpenChange={(isOpen) => !isOpen && onIndexChange(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="share-lightbox-overlay" />
        <Dialog.Content
          className="share-lightbox"
          aria-describedby={undefined}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') step(1);
            if (event.key === 'ArrowLeft') step(-1);
          }}
        >
          {file && <img className="share-lightbox-image" src={urls.large(file.id)} alt={title(file, language)} />}
          <div className="share-lightbox-bar">
            <Dialog.Title className="share-lightbox-title">{file && title(file, language)}</Dialog.Title>
            {description && <span className="share-lightbox-description">{description}</span>}
            {credit && <span className="share-lightbox-credit">{credit}</span>}
            <button type="button" className="button" onClick={() => step(-1)} aria-label={t.previous}>
              ←
            </button>
            <button type="button" className="button" onClick={() => step(1)} aria-label={t.next}>
              →
            </button>
            <Dialog.Close className="button" aria-label={t.close}>
              ✕
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
