import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { publicCollectionQueryOptions } from '../api/get-public-collection.ts';
import type { PublicCollection } from '../api/schemas.ts';
import { publicMediaUrl } from '../lib/media-url.ts';
import { collectionZipPages } from '../api/collection-zip-pages.ts';
import { useZipDownload, zipTexts } from '../../../lib/zip/use-zip-download.ts';
import { creditLine } from '../../../lib/credit-line.ts';
import { texts, useLanguage, type Language } from '../lib/language.ts';
import { PublicLayout } from './public-layout.tsx';
import { NotAvailable } from './not-available.tsx';
import { PublicLoadError, PublicLoading } from './load-state.tsx';

/** /collection/{id}: a public collection's published files, each opening its public file page. */
export function PublicCollectionScreen() {
  const { id = '' } = useParams();
  const [language, setLanguage] = useLanguage();
  const collection = useQuery(publicCollectionQueryOptions(id));
  const t = texts[language];
  return (
    <PublicLayout
      language={language}
      onLanguageChange={setLanguage}
      title={collection.data?.name ?? t.sharedCollection}
    >
      {collection.isPending ? (
        <PublicLoading language={language} />
      ) : collection.isError ? (
        <PublicLoadError language={language} onRetry={() => void collection.refetch()} />
      ) : collection.data === null ? (
        <NotAvailable language={language} kind="collection" />
      ) : (
        <PublicCollectionView collection={collection.data} language={language} />
      )}
    </PublicLayout>
  );
}

function PublicCollectionView({ collection, language }: { collection: PublicCollection; language: Language }) {
  const t = texts[language];
  const langQuery = language === 'en' ? '?lang=en' : '';
  const zip = useZipDownload(zipTexts[language]);
  // Built in this tab from the originals' signed URLs and saved as it is written (any size).
  const downloadAll = () =>
    zip.start({
      fileName: `${collection.name}.zip`,
      fetchPage: collectionZipPages(collection.id, t.collectionUnavailable),
      totalFiles: collection.files.length,
      expectedBytes: collection.files.reduce((sum, file) => sum + file.size, 0),
    });
  return (
    <section className="public-collection" aria-labelledby="collection-title">
      <p className="public-kicker">{t.sharedCollection}</p>
      <h1 id="collection-title">{collection.name}</h1>
      <div className="public-collection-bar">
        <p className="public-count">{t.files(collection.files.length)}</p>
        {collection.files.length > 0 && (
          <button
            type="button"
            className="button button-primary public-download"
            disabled={zip.status !== null}
            aria-busy={zip.status !== null}
            onClick={downloadAll}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
              <path d="M12 3v12m0 0l-5-5m5 5l5-5M4 19h16" fill="none" stroke="currentColor" strokeWidth="2.2" />
            </svg>
            {t.downloadAll}
          </button>
        )}
      </div>
      {zip.status && (
        <p className="public-zip-status" role="status">
          {zip.status}
        </p>
      )}
      {collection.files.length === 0 ? (
        <p className="public-empty">{t.emptyCollection}</p>
      ) : (
        <ul className="public-grid">
          {collection.files.map((file) => {
            const name = language === 'en' ? file.nameEn : file.nameEs;
            const credit = creditLine(file);
            return (
              <li key={file.id}>
                <Link
                  to={`/file/${file.id}${langQuery}`}
                  state={{ fromCollection: { id: collection.id, name: collection.name } }}
                  className="public-card"
                >
                  {file.isImage ? (
                    <img src={publicMediaUrl.thumbnail(file.id)} alt="" width={400} height={300} loading="lazy" />
                  ) : (
                    <span className="public-card-tile" aria-hidden="true">
                      {(file.extension || '?').toUpperCase()}
                    </span>
                  )}
                  <span className="public-card-name clamp-2" title={name}>
                    {name}
                  </span>
                  {credit && (
                    <span className="public-card-credit" title={credit}>
                      {credit}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
