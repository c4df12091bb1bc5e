import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router-dom';
import { formatSize } from '../../../lib/format.ts';
import { publicFileQueryOptions } from '../api/get-public-file.ts';
import type { PublicFile } from '../api/schemas.ts';
import { publicMediaUrl } from '../lib/media-url.ts';
import { texts, useLanguage, type Language } from '../lib/language.ts';
import { PublicLayout } from './public-layout.tsx';
import { NotAvailable } from './not-available.tsx';
import { PublicLoadError, PublicLoading } from './load-state.tsx';

/** Set by the public collection page's links, for a way back to it. */
interface FromCollection {
  fromCollection?: { id: string; name: string };
}

/** /file/{id}: a published file for anyone with the link. */
export function PublicFileScreen() {
  const { id = '' } = useParams();
  const [language, setLanguage] = useLanguage();
  const file = useQuery(publicFileQueryOptions(id));
  const t = texts[language];

  const title = file.data ? (language === 'en' ? file.data.nameEn : file.data.nameEs) : t.sharedFile;
  return (
    <PublicLayout language={language} onLanguageChange={setLanguage} title={title}>
      {file.isPending ? (
        <PublicLoading language={language} />
      ) : file.isError ? (
        <PublicLoadError language={language} onRetry={() => void file.refetch()} />
      ) : file.data === null ? (
        <NotAvailable language={language} kind="file" />
      ) : (
        <PublicFileView file={file.data} language={language} />
      )}
    </PublicLayout>
  );
}

function PublicFileView({ file, language }: { file: PublicFile; language: Language }) {
  const t = texts[language];
  const from = (useLocation().state as FromCollection | null)?.fromCollection;
  const name = language === 'en' ? file.nameEn : file.nameEs;
  const description = language === 'en' ? file.descriptionEn : file.descriptionEs;
  const langQuery = language === 'en' ? '?lang=en' : '';
  // Who made the picture and who must be credited travel with it wherever it is shown.
  const credits = [
    [t.creator, file.creator.trim()],
    [t.credit, file.credit.trim()],
    [t.copyright, file.copyright.trim()],
  ] as const;
  return (
    <article className="public-file">
      {from && (
        <p className="public-back">
          <Link to={`/collection/${from.id}${langQuery}`}>← {from.name}</Link>
        </p>
      )}
      <div className="public-file-layout">
        <div className="public-file-preview">
          {file.isImage ? (
            <a href={publicMediaUrl.large(file.id)} target="_blank" rel="noreferrer" title={t.openLarge}>
              <img
                src={publicMediaUrl.preview(file.id)}
                alt={name}
                width={file.width ?? 1024}
                height={file.height ?? 768}
              />
            </a>
          ) : (
            <span className="public-type-tile" aria-hidden="true">
              {(file.extension || '?').toUpperCase()}
            </span>
          )}
        </div>
        <div className="public-file-info">
          <h1>{name}</h1>
          {description && <p className="public-description">{description}</p>}
          <dl className="public-facts">
            <div>
              <dt>{t.type}</dt>
              <dd>{(file.extension || '—').toUpperCase()}</dd>
            </div>
            <div>
              <dt>{t.size}</dt>
              <dd>{formatSize(file.size)}</dd>
            </div>
            {credits.map(
              ([label, value]) =>
                value && (
                  <div key={label}>
                    <dt>{label}</dt>
                    <dd>{value}</dd>
                  </div>
                ),
            )}
            {file.width && file.height && (
              <div>
                <dt>{t.dimensions}</dt>
                <dd>
                  {file.width} × {file.height} px
                </dd>
              </div>
            )}
          </dl>
          <a className="button button-primary public-download" href={publicMediaUrl.original(file.id)} download>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
              <path d="M12 3v12m0 0l-5-5m5 5l5-5M4 19h16" fill="none" stroke="currentColor" strokeWidth="2.2" />
            </svg>
            {t.download}
          </a>
        </div>
      </div>
    </article>
  );
}
