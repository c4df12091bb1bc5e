import Uppy, { type UppyFile, type UppyOptions } from '@uppy/core';
import Tus from '@uppy/tus';
import { deployment } from '../../config/deployment.ts';
import { fileBaseName, fileExtension, isTooLargeToUpload, readableTitle, sanitizeFileName } from './file-name.ts';
import { objectPathFromUploadUrl, supabaseTusOptions, type UploadMeta } from './tus-options.ts';

export type MediaUppy = Uppy<UploadMeta, Record<string, never>>;
export type MediaUppyFile = UppyFile<UploadMeta, Record<string, never>>;

export interface UploaderOptions {
  /** Folder of the stored object: the id of the file record the upload becomes ({fileId}/{uploadId}.ext). */
  folderFor: () => string;
  /** Called with the (sanitized) name of each file refused for being over 1 GB; the file is not added. */
  onTooLarge?: (name: string) => void;
  /** Called with the (sanitized) name of each empty (0-byte) file, refused too: there is nothing to keep. */
  onEmpty?: (name: string) => void;
  autoProceed?: boolean;
  locale?: UppyOptions<UploadMeta, Record<string, never>>['locale'];
}

/**
 * The one Uppy set-up for every upload in the app (the upload screen's Dashboard and the detail screen's
 * 'Subir nuevo archivo'): TUS to Supabase Storage in 6 MiB chunks, one file at a time, a fresh token per
 * request, resumable after a reload. Every file added gets a sanitized name (shown and recorded as its file name),
 * a title as the person wrote it (the record's first names)
 * and the object path it will be stored at; a file over 1 GB or an empty one is refused before anything starts.
 */
export function createUploader({
  folderFor,
  onTooLarge,
  onEmpty,
  autoProceed = false,
  locale,
}: UploaderOptions): MediaUppy {
  const uppy: MediaUppy = new Uppy<UploadMeta, Record<string, never>>({
    autoProceed,
    locale,
    onBeforeFileAdded: (file, files) => {
      const name = sanitizeFileName(file.name ?? '') || 'archivo';
      const title = readableTitle(file.name ?? '') || fileBaseName(name) || name;
      if (isTooLargeToUpload(file.size ?? 0)) {
        onTooLarge?.(name);
        return false;
      }
      if (file.size === 0) {
        onEmpty?.(name);
        return false;
      }
      const listed = files[file.id];
      // The same file again while it is still in the list (uploading, paused or failed): Uppy says so.
      // A finished one is replaced by the new attempt, which is a new upload of its own.
      if (listed && !isFinished(listed)) return undefined;
      const extension = fileExtension(name);
      const objectName = `${folderFor()}/${crypto.randomUUID()}${extension ? `.${extension}` : ''}`;
      return {
        ...file,
        name,
        extension,
        meta: {
          ...file.meta,
          name,
          bucketName: deployment.storage.mediaBucket,
          objectName,
          contentType: file.type || 'application/octet-stream',
          cacheControl: 'no-cache',
          originalName: name,
          title,
        },
      };
    },
  });
  uppy.use(Tus<UploadMeta, Record<string, never>>, supabaseTusOptions());
  return uppy;
}

/** Uploaded and recorded without error: what the list colours green. */
export function isFinished(file: MediaUppyFile): boolean {
  return Boolean(file.progress.uploadComplete && !file.progress.postprocess && !file.error);
}

/**
 * The object an upload landed in. After a reload the upload resumes at the URL of the first attempt, whose
 * object name (in the URL) differs from the one this session chose, so the URL has the last word.
 */
export function uploadedObjectPath(file: MediaUppyFile, uploadUrl: string | undefined): string {
  return (uploadUrl && objectPathFromUploadUrl(uploadUrl)) || file.meta.objectName;
}
