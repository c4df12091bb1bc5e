import { useEffect, useState, type RefObject } from 'react';
import Dashboard from '@uppy/dashboard';
import { useUploadActivity } from '../../../lib/uploads/upload-activity.tsx';
import {
  createUploader,
  isFinished,
  uploadedObjectPath,
  type MediaUppy,
  type MediaUppyFile,
} from '../../../lib/uploads/uploader.ts';
import { fileExtension } from '../../../lib/uploads/file-name.ts';
import type { UploadMeta } from '../../../lib/uploads/tus-options.ts';
import { spanishError } from '../../../lib/errors.ts';
import { canRetryUpload, spanishUploadError } from '../../../lib/uploads/upload-errors.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { recordUpload } from '../api/record-upload.ts';
import { dashboardStrings, uploadingTitle, uppyLocale } from '../lib/uppy-locale.ts';

/** Thumbnails only while fewer than 5 uploads are listed, and only for these image types. */
const THUMBNAIL_LIMIT = 5;
const PREVIEW_EXTENSIONS = new Set(['jpg', 'jpeg', 'png']);
const RECORD_FAILED = 'El archivo se subió, pero no se pudo registrar. Inténtalo de nuevo.';
const RECORDING = 'Registrando el archivo…';

/** A file that was not uploaded and cannot be by trying again, with the reason. */
export interface RefusedUpload {
  name: string;
  reason: string;
}

/** An upload whose file record exists: the id the library knows it by. */
export interface RecordedUpload {
  uppyId: string;
  fileId: string;
  name: string;
}

/**
 * The upload screen's Uppy: an inline Dashboard (drop zone, paste, file list with per-file progress,
 * pause/resume/cancel/retry, done and failed states) over the app's one TUS set-up. Each file's record is
 * written as soon as its bytes land, and the file only turns green once it is.
 */
export function useUploadDashboard(target: RefObject<HTMLDivElement | null>) {
  const { setUploading } = useUploadActivity();
  const [refused, setRefused] = useState<string[]>([]);
  const [empty, setEmpty] = useState<string[]>([]);
  const [rejected, setRejected] = useState<RefusedUpload[]>([]);
  const [recorded, setRecorded] = useState<RecordedUpload[]>([]);

  // One Uppy per mounted screen, created and destroyed by the same effect: React may re-run effects on a
  // kept component, and a memoised instance would survive its own destroy().
  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let tooLarge: string[] = [];
    let emptyFiles: string[] = [];
    const uppy = createUploader({
      folderFor: () => crypto.randomUUID(),
      onTooLarge: (name) => tooLarge.push(name),
      onEmpty: (name) => emptyFiles.push(name),
      autoProceed: true,
      locale: uppyLocale,
    });
    uppy.use(Dashboard<UploadMeta, Record<string, never>>, {
      target: element,
      inline: true,
      width: '100%',
      height: 440,
      proudlyDisplayPoweredByUppy: false,
      // One file is listed like many (a list with its items), not as a full-screen preview.
      singleFileFullScreen: false,
      // Our own previews (below), so that the fewer-than-5 rule holds and large images are not decoded.
      disableThumbnailGenerator: true,
      hideProgressDetails: false,
      doneButtonHandler: () => removeFinished(uppy),
      locale: { strings: dashboardStrings },
    });

    // Uppy draws a lone file as a listitem in a container without the list role (axe: aria-required-parent);
    // the container gets the role it lacks, whenever Uppy (re)creates it.
    const listRole = new MutationObserver(() => {
      for (const list of element.querySelectorAll('.uppy-Dashboard-files:not([role])'))
        list.setAttribute('role', 'list');
    });
    listRole.observe(element, { childList: true, subtree: true });

    const records = new Map<string, Promise<void>>();
    // The batch is 'complete' (and its toast shown) only once every record is written.
    uppy.addPostProcessor(async (fileIds) => {
      await Promise.all(fileIds.map((id) => records.get(id)));
    });

    uppy.on('files-added', (added) => {
      // A new batch starts a new list: the finished uploads of the previous one go.
      const batch = new Set(added.map((file) => file.id));
      removeFinished(uppy, (file) => !batch.has(file.id));
      setRecorded((current) => current.filter((upload) => !batch.has(upload.uppyId)));
      setRefused(tooLarge);
      setEmpty(emptyFiles);
      setRejected([]);
      tooLarge = [];
      emptyFiles = [];
      showPreviews(uppy);
    });
    uppy.on('file-removed', (file) => {
      if (file.preview) URL.revokeObjectURL(file.preview);
      setRecorded((current) => current.filter((upload) => upload.uppyId !== file.id));
      showPreviews(uppy);
    });

    uppy.on('upload-success', (file, response) => {
      if (!file) return;
      uppy.emit('postprocess-progress', file, { mode: 'indeterminate', message: RECORDING });
      const objectPath = uploadedObjectPath(file, response.uploadURL);
      const fileId = objectPath.split('/')[0]!;
      const record = recordUpload({
        fileId,
        objectPath,
        originalFileName: file.meta.originalName,
        title: file.meta.title,
        size: file.size ?? 0,
      })
        .then(() => {
          setRecorded((current) => [...current, { uppyId: file.id, fileId, name: file.meta.originalName }]);
          emitRecorded(uppy, file.id);
        })
        .catch((error: unknown) => {
          if (!uppy.getFile(file.id)) return;
          // 'Reintentar' uploads the bytes again, to a new object (the first one is left to the trash job).
          uppy.setFileMeta(file.id, {
            ...uppy.getFile(file.id).meta,
            objectName: `${crypto.randomUUID()}/${objectPath.split('/')[1]}`,
          });
          emitRecorded(uppy, file.id);
          uppy.setFileState(file.id, { error: spanishError(error, RECORD_FAILED) });
        });
      records.set(file.id, record);
    });
    uppy.on('upload-error', (file, error) => {
      if (!file || !uppy.getFile(file.id)) return;
      // tus messages are English and carry the whole upload URL: the person gets one Spanish sentence, on the
      // file and in the status bar's details (its '?').
      const reason = spanishUploadError(error);
      uppy.setFileState(file.id, { error: reason });
      // Uppy's own notice ('Error al subir …') carries tus's message as its details, behind a '?'.
      const english = (error as Error | undefined)?.message ?? '';
      const info = uppy
        .getState()
        .info.map((notice) =>
          english && typeof notice.details === 'string' && notice.details.includes(english)
            ? { ...notice, details: reason }
            : notice,
        );
      uppy.setState({ error: reason, info });
      if (canRetryUpload(error)) return;
      // Storage refused the file itself: 'Reintentar' could not work, so the file leaves the list (after Uppy
      // has finished with it) and the screen says why.
      setTimeout(() => {
        if (!uppy.getFile(file.id)) return;
        uppy.removeFile(file.id);
        setRejected((current) => [...current, { name: file.meta.originalName, reason }]);
        const said = `«${file.meta.originalName}» no se pudo subir: ${reason}`;
        notify.error(new Error(said), said);
      }, 0);
    });
    uppy.on('complete', (result) => {
      // Uppy recomputes its total progress at most every 500 ms, and the status bar says 'Completado' only
      // once that total reads 100: up to half a second after the last record was written. When
      // every file's bytes are in, the total is 100, which is what Uppy's own pass would find.
      if (uppy.getFiles().every((file) => file.progress.uploadComplete)) uppy.setState({ totalProgress: 100 });
      const done = result.successful?.length ?? 0;
      const failed = result.failed?.length ?? 0;
      if (done > 0) notify.success(`${plural(done, 'archivo subido', 'archivos subidos')}.`);
      // Our own sentence, shown as it is (it has no accent for spanishError to recognise it by).
      const failedSentence = `${plural(failed, 'archivo no se pudo subir', 'archivos no se pudieron subir')}.`;
      if (failed > 0) notify.error(new Error(failedSentence), failedSentence);
    });
    // The Dashboard's title says which file of the batch is on its way; set only when it changes, since
    // setOptions itself updates the state.
    let title = '';
    const showTitle = () => {
      const next = uploadingTitle(uppy.getFiles());
      if (next === title) return;
      title = next;
      uppy.getPlugin('Dashboard')?.setOptions({
        locale: { strings: { ...dashboardStrings, uploadingXFiles: { 0: next, 1: next } } },
      });
    };
    // The top bar's spinner: bytes on their way (not paused) or a record being written.
    uppy.on('state-update', () => {
      const { inProgressNotPausedFiles, processingFiles } = uppy.getObjectOfFilesPerState();
      // A failed file stays 'started and not complete' for Uppy; nothing of it is on its way any more.
      setUploading(inProgressNotPausedFiles.some((file) => !file.error) || processingFiles.length > 0);
      showTitle();
    });

    return () => {
      listRole.disconnect();
      for (const file of uppy.getFiles()) if (file.preview) URL.revokeObjectURL(file.preview);
      uppy.destroy();
      setUploading(false);
    };
  }, [target, setUploading]);

  return { refused, empty, rejected, recorded };
}

function emitRecorded(uppy: MediaUppy, id: string) {
  const file = uppy.getFile(id);
  if (file) uppy.emit('postprocess-complete', file);
}

function removeFinished(uppy: MediaUppy, alsoOnly: (file: MediaUppyFile) => boolean = () => true) {
  const finished = uppy.getFiles().filter((file) => isFinished(file) && alsoOnly(file));
  if (finished.length > 0) uppy.removeFiles(finished.map((file) => file.id));
}

/** Previews of JPEG and PNG files while fewer than 5 files are listed; none (and memory freed) otherwise. */
function showPreviews(uppy: MediaUppy) {
  const files = uppy.getFiles();
  const wanted = files.length < THUMBNAIL_LIMIT;
  for (const file of files) {
    const previewable = wanted && !file.isRemote && file.data && PREVIEW_EXTENSIONS.has(fileExtension(file.name));
    if (previewable && !file.preview) {
      uppy.setFileState(file.id, { preview: URL.createObjectURL(file.data!) });
    } else if (!previewable && file.preview) {
      URL.revokeObjectURL(file.preview);
      uppy.setFileState(file.id, { preview: undefined });
    }
  }
}
