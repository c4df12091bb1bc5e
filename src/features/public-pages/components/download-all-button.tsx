import type { SharedPage } from '../api/schemas.ts';
import { shareLinkZipPages } from '../api/share-link-zip-pages.ts';
import { texts, type Language } from '../lib/language.ts';
import { useZipDownload, zipTexts } from '../../../lib/zip/use-zip-download.ts';

/** A link's name as a file name: no character a file system refuses, never empty. */
const archiveName = (name: string) => `${name.replace(/[\\/:*?"<>|]/g, '_').trim() || 'archivos'}.zip`;

/**
 * 'Descargar todo (ZIP)' of a shared link: the archive is written in this tab from the originals the link
 * allows and saved as it is written (src/lib/zip, as a public collection's), so neither a server function nor
 * the page holds it whole, whatever its size.
 */
export function DownloadAllButton({
  page,
  token,
  grant,
  language,
}: {
  page: SharedPage;
  token: string;
  grant: string | null;
  language: Language;
}) {
  const t = texts[language];
  const zip = useZipDownload(zipTexts[language]);
  const download = () =>
    zip.start({
      fileName: archiveName(page.name),
      fetchPage: shareLinkZipPages(
        token,
        grant,
        page.files.map((file) => file.id),
        t.linkUnavailable,
      ),
      totalFiles: page.files.length,
      expectedBytes: page.files.reduce((sum, file) => sum + file.size, 0),
    });

  return (
    <div className="share-download-all">
      <button
        type="button"
        className="button button-primary"
        disabled={zip.status !== null}
        aria-busy={zip.status !== null}
        onClick={download}
      >
        {t.downloadAll}
      </button>
      {zip.status && (
        <p className="share-page-zip-status" role="status">
          {zip.status}
        </p>
      )}
    </div>
  );
}
