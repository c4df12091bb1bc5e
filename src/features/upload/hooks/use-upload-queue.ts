import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { spanishError } from '../../../lib/errors.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { createChecksummer, type Checksummer } from '../../../lib/uploads/file-checksum.ts';
import { isTooLargeToUpload, sanitizeFileName } from '../../../lib/uploads/file-name.ts';
import { useUploadActivity } from '../../../lib/uploads/upload-activity.tsx';
import { createUploader, uploadedObjectPath, type MediaUppy } from '../../../lib/uploads/uploader.ts';
import { canRetryUpload, spanishUploadError } from '../../../lib/uploads/upload-errors.ts';
import { copyInLibrary, sizesInLibrary } from '../api/check-library.ts';
import { recordUpload } from '../api/record-upload.ts';
import { createUploadListStore, type UploadListStore } from '../lib/upload-list-store.ts';
import { LARGE_FILE_BYTES, copyInList, finishedBatch, isListed, type UploadItem } from '../lib/upload-items.ts';
import { uppyLocale } from '../lib/uppy-locale.ts';

const RECORD_FAILED = 'El archivo se subió, pero no se pudo registrar. Inténtalo de nuevo.';
/** The last bar stays green this long before the finished uploads leave the list. */
const CLEAR_DELAY_MS = 1000;
/** The files screen, newest first: where the toast's link takes the person to see what went up. */
export const NEWEST_FILES = `${paths.files}?sort=uploadedOn_desc`;
const SENDING: ReadonlySet<UploadItem['phase']> = new Set(['checking', 'queued', 'uploading', 'recording']);

/** Files refused before anything starts, by reason, with their (sanitised) names. */
export interface RefusedFiles {
  tooLarge: string[];
  empty: string[];
}

interface Engine {
  uppy: MediaUppy;
  checksummer: Checksummer;
}

/**
 * The upload screen's queue: each file offered is first checked against the library (hashed in a worker and
 * asked about) and only then given to Uppy, which sends it through TUS, one at a time; its record is written
 * as soon as its bytes land. When nothing is left on its way, the finished uploads leave the list and a toast
 * says how many went up.
 */
export function useUploadQueue() {
  const { setUploading } = useUploadActivity();
  const navigate = useNavigate();
  const [store] = useState(createUploadListStore);
  const items = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [refused, setRefused] = useState<RefusedFiles>({ tooLarge: [], empty: [] });
  const engine = useRef<Engine | null>(null);

  const sendToUppy = useCallback(
    (key: string) => {
      const item = store.get(key);
      const uppy = engine.current?.uppy;
      if (!item || !uppy) return;
      try {
        const uppyId = uppy.addFile({ name: item.file.name, type: item.file.type, data: item.file });
        store.update(key, { uppyId, phase: 'queued', progress: 0, error: undefined });
      } catch (error) {
        store.update(key, { phase: 'error', retryable: false, error: spanishError(error, 'No se pudo añadir.') });
      }
    },
    [store],
  );

  // One Uppy and one hashing worker per mounted screen, made and ended by the same effect: React may re-run
  // effects on a kept component, and a memoised instance would survive its own destroy().
  useEffect(() => {
    const uppy = createUploader({ folderFor: () => crypto.randomUUID(), autoProceed: true, locale: uppyLocale });
    const checksummer = createChecksummer();
    engine.current = { uppy, checksummer };
    followUppy(uppy, store);
    return () => {
      engine.current = null;
      checksummer.stop();
      uppy.destroy();
      store.remove(store.getSnapshot().map((item) => item.key));
      setUploading(false);
    };
  }, [store, setUploading]);

  // The top bar's spinner: something being checked, sent or recorded (a paused or undecided file is not).
  useEffect(() => {
    setUploading(items.some((item) => SENDING.has(item.phase)));
  }, [items, setUploading]);

  // The batch is over: after a moment the finished uploads leave the list, and the toast links to them.
  useEffect(() => {
    const done = finishedBatch(items);
    if (!done) return;
    const timer = setTimeout(() => {
      const uppy = engine.current?.uppy;
      const uppyIds = done.flatMap((item) => (item.uppyId && uppy?.getFile(item.uppyId) ? [item.uppyId] : []));
      if (uppyIds.length > 0) uppy?.removeFiles(uppyIds);
      store.remove(done.map((item) => item.key));
      notify.successWithLink(plural(done.length, 'archivo subido', 'archivos subidos'), {
        label: 'Ver los archivos',
        href: NEWEST_FILES,
        follow: () => void navigate(NEWEST_FILES),
      });
    }, CLEAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [items, store, navigate]);

  /** The library has these bytes (or this list has): the person decides; otherwise the file goes up. */
  const decide = useCallback(
    async (key: string, checksum: string) => {
      store.update(key, { checksum, progress: 1 });
      let copy = null;
      try {
        copy = await copyInLibrary(checksum);
      } catch (error) {
        // The check is a courtesy: without an answer the file goes up (post-processing still marks copies).
        console.error(error);
      }
      copy ??= copyInList(store.getSnapshot(), key, checksum);
      if (copy) store.update(key, { phase: 'duplicate', existing: copy, progress: 0 });
      else sendToUppy(key);
    },
    [store, sendToUppy],
  );

  /** Files chosen or dropped: refused at once when they cannot go, then checked, then uploaded. */
  const offer = useCallback(
    async (files: readonly File[]) => {
      const checksummer = engine.current?.checksummer;
      if (!checksummer) return;
      const next: RefusedFiles = { tooLarge: [], empty: [] };
      const fresh: UploadItem[] = [];
      for (const file of files) {
        const name = sanitizeFileName(file.name) || 'archivo';
        if (isTooLargeToUpload(file.size)) next.tooLarge.push(name);
        else if (file.size === 0) next.empty.push(name);
        else if (isListed([...store.getSnapshot(), ...fresh], file)) notify.info(`«${name}» ya está en la lista.`);
        else fresh.push({ key: crypto.randomUUID(), name, size: file.size, file, phase: 'checking', progress: 0 });
      }
      setRefused(next);
      store.add(fresh);

      // A copy has the same size: a large file is hashed only when the library (or this list) has its size.
      let librarySizes = new Set<number>();
      try {
        librarySizes = await sizesInLibrary(fresh.filter((item) => item.size >= LARGE_FILE_BYTES).map((i) => i.size));
      } catch (error) {
        console.error(error);
      }
      const listedSizes = store.getSnapshot().map((item) => item.size);
      for (const item of fresh) {
        const sameSizeListed = listedSizes.filter((size) => size === item.size).length > 1;
        if (item.size >= LARGE_FILE_BYTES && !librarySizes.has(item.size) && !sameSizeListed) {
          sendToUppy(item.key);
          continue;
        }
        checksummer.hash(item.key, item.file, {
          onProgress: (hashed) => store.update(item.key, { progress: hashed / item.size }),
          onChecksum: (checksum) => void decide(item.key, checksum),
          // Unreadable here means unreadable for the upload too, which then says so in the list.
          onError: () => sendToUppy(item.key),
        });
      }
    },
    [store, sendToUppy, decide],
  );

  const actions = {
    uploadAnyway: (item: UploadItem) => sendToUppy(item.key),
    skip: (item: UploadItem) => store.remove([item.key]),
    pauseResume: (item: UploadItem) => {
      if (item.uppyId) engine.current?.uppy.pauseResume(item.uppyId);
    },
    retry: (item: UploadItem) => {
      if (item.uppyId) void engine.current?.uppy.retryUpload(item.uppyId);
    },
    remove(item: UploadItem) {
      engine.current?.checksummer.cancel(item.key);
      const uppy = engine.current?.uppy;
      if (item.uppyId && uppy?.getFile(item.uppyId)) uppy.removeFile(item.uppyId);
      store.remove([item.key]);
    },
  };

  return { items, refused, offer, actions };
}

export type UploadActions = ReturnType<typeof useUploadQueue>['actions'];

/** Uppy's events, written into the list: progress, pause, the record after the bytes, failures in Spanish. */
function followUppy(uppy: MediaUppy, store: UploadListStore) {
  const keyOf = (uppyId: string | undefined) => (uppyId ? store.byUppyId(uppyId)?.key : undefined);
  // Uppy starts every file of a batch at once and tus sends them one at a time: a file is 'En espera' until
  // its own bytes move.
  uppy.on('upload-start', (files) => {
    for (const file of files) {
      const key = keyOf(file.id);
      if (key) store.update(key, { phase: file.isPaused ? 'paused' : 'queued', error: undefined });
    }
  });
  uppy.on('upload-progress', (file, progress) => {
    const key = keyOf(file?.id);
    if (key && progress.bytesTotal && store.get(key)?.phase !== 'paused')
      store.update(key, { phase: 'uploading', progress: progress.bytesUploaded / progress.bytesTotal });
  });
  uppy.on('upload-pause', (file, isPaused) => {
    const key = keyOf(file?.id);
    if (key) store.update(key, { phase: isPaused ? 'paused' : 'uploading' });
  });
  uppy.on('upload-retry', (file) => {
    const key = keyOf(file.id);
    if (key) store.update(key, { phase: 'queued', error: undefined });
  });
  uppy.on('upload-success', (file, response) => {
    const key = keyOf(file?.id);
    if (!file || !key) return;
    store.update(key, { phase: 'recording', progress: 1 });
    const objectPath = uploadedObjectPath(file, response.uploadURL);
    recordUpload({
      fileId: objectPath.split('/')[0]!,
      objectPath,
      originalFileName: file.meta.originalName,
      title: file.meta.title,
    })
      .then(() => store.update(key, { phase: 'done' }))
      .catch((error: unknown) => {
        if (!uppy.getFile(file.id)) return;
        // 'Reintentar' sends the bytes again, to a new object (the first one is left to the trash job).
        uppy.setFileMeta(file.id, {
          ...uppy.getFile(file.id).meta,
          objectName: `${crypto.randomUUID()}/${objectPath.split('/')[1]}`,
        });
        const reason = spanishError(error, RECORD_FAILED);
        uppy.setFileState(file.id, { error: reason });
        store.update(key, { phase: 'error', retryable: true, error: reason });
      });
  });
  uppy.on('upload-error', (file, error) => {
    const key = keyOf(file?.id);
    if (!file || !key) return;
    // tus messages are English and carry the whole upload URL: the person gets one Spanish sentence.
    const reason = spanishUploadError(error);
    store.update(key, { phase: 'error', retryable: canRetryUpload(error), error: reason });
    const said = `«${file.meta.originalName}» no se pudo subir: ${reason}`;
    notify.error(new Error(said), said);
  });
}
