import { useState } from 'react';
import type { SharedFile } from '../api/open-share-link.ts';
import type { ShareMediaUrls } from '../lib/share-media-url.ts';
import { buildZip, uniqueNames, ZIP_MAX_BYTES, ZIP_MAX_ENTRIES } from '../lib/store-zip.ts';
import { texts, type Language } from '../lib/texts.ts';

const PARALLEL_DOWNLOADS = 4;

/** Every original through share-link-media (which counts each as a download), a few at a time. */
async function fetchOriginals(files: readonly SharedFile[], urls: ShareMediaUrls, onProgress: (done: number) => void) {
  const results: { name: string; bytes: Uint8Array }[] = new Array(files.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      const index = next++;
      const file = files[index]!;
      const signed = await fetch(urls.originalJson(file.id));
      if (!signed.ok) throw new Error(`share-link-media ${signed.status}`);
      const { url, fileName } = (await signed.json()) as { url: string; fileName: string };
      const bytes = await fetch(url);
      if (!bytes.ok) throw new Error(`original ${bytes.status}`);
      results[index] = { name: fileName, bytes: new Uint8Array(await bytes.arrayBuffer()) };
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, files.length) }, worker));
  return results;
}

/**
 * 'Descargar todo (ZIP)': the archive is put together in this page from the originals the link allows, so
 * no server function holds hundreds of megabytes for one visitor.
 */
export function DownloadAllButton({
  files,
  urls,
  name,
  language,
}: {
  files: readonly SharedFile[];
  urls: ShareMediaUrls;
  name: string;
  language: Language;
}) {
  const t = texts[language];
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const total = files.reduce((sum, file) => sum + file.size, 0);

  const download = async () => {
    setProblem(null);
    if (files.length > ZIP_MAX_ENTRIES || total > ZIP_MAX_BYTES) return setProblem(t.zipTooBig);
    setProgress(0);
    try {
      const originals = await fetchOriginals(files, urls, setProgress);
      const names = uniqueNames(originals.map((original) => original.name));
      const zip = buildZip(originals.map((original, index) => ({ name: names[index]!, bytes: original.bytes })));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(zip);
      link.download = `${name.replace(/[\\/:*?"<>|]/g, '_').trim() || 'archivos'}.zip`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (error) {
      console.error(error);
      setProblem(t.zipFailed);
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="share-download-all">
      <button
        type="button"
        className="button button-primary"
        disabled={progress !== null}
        onClick={() => void download()}
      >
        {progress === null ? t.downloadAll : t.zipping(progress, files.length)}
      </button>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
