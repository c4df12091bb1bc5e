import { deployment } from '../../../config/deployment.ts';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import Uppy from '@uppy/core';
import Tus from '@uppy/tus';
import { useUploadActivity } from '../../../lib/uploads/upload-activity.tsx';
import {
  FILE_TOO_LARGE_MESSAGE,
  fileExtension,
  isTooLargeToUpload,
  sanitizeFileName,
} from '../../../lib/uploads/file-name.ts';
import { recordUpload } from '../api/record-upload.ts';
import { objectPathFromUploadUrl } from '../../../lib/uploads/tus-options.ts';
import { formatSize } from '../../../lib/format.ts';
import { spanishError } from '../../../lib/errors.ts';
import { notify } from '../../../lib/notify.ts';
import { plural } from '../../../lib/plural.ts';
import { supabaseTusOptions, type UploadMeta } from '../../../lib/uploads/tus-options.ts';

const THUMBNAIL_LIMIT = 5;
const UPLOAD_FAILED = 'No se pudo subir el archivo. Inténtalo de nuevo.';
const RECORD_FAILED = 'El archivo se subió, pero no se pudo registrar. Inténtalo de nuevo.';

type Meta = UploadMeta;
type Item = {
  id: string;
  name: string;
  size: number;
  progress: number;
  state: 'pending' | 'complete' | 'error';
  message?: string;
  preview?: string;
};

/**
 * Upload screen (spec sections 2, 4, 5): files go one at a time through TUS to Storage, resuming after a
 * dropped connection and, after a reload, when the same file is offered again (tus fingerprints).
 */
export function UploadScreen() {
  const { setUploading } = useUploadActivity();
  const [items, setItems] = useState<Item[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const uppyRef = useRef<Uppy<Meta, Record<string, never>> | null>(null);

  // One Uppy per mounted screen, created and destroyed by the same effect: React may re-run effects on a
  // kept component, and a memoised instance would survive its own destroy().
  useEffect(() => {
    const instance = new Uppy<Meta, Record<string, never>>({ autoProceed: false });
    instance.use(Tus<Meta, Record<string, never>>, supabaseTusOptions());
    const update = (id: string, patch: Partial<Item>) =>
      setItems((current) => current.map((item) => (item.id === id ? { ...item, ...patch } : item)));
    instance.on('upload-progress', (file, progress) => {
      if (file && progress.bytesTotal) update(file.id, { progress: progress.bytesUploaded / progress.bytesTotal });
    });
    instance.on('upload-success', (file, response) => {
      if (!file) return;
      const objectPath = (response.uploadURL && objectPathFromUploadUrl(response.uploadURL)) ?? file.meta.objectName;
      recordUpload({
        fileId: objectPath.split('/')[0]!,
        objectPath,
        originalFileName: file.meta.originalName,
        size: file.size ?? 0,
      }).then(
        () => update(file.id, { state: 'complete', progress: 1 }),
        (error: unknown) => update(file.id, { state: 'error', message: spanishError(error, RECORD_FAILED) }),
      );
    });
    instance.on('upload-error', (file, error) => {
      // tus messages are English and carry the whole upload URL: the person gets one Spanish sentence.
      if (file) update(file.id, { state: 'error', message: spanishError(error, UPLOAD_FAILED) });
    });
    instance.on('complete', (result) => {
      setUploading(false);
      const done = result.successful?.length ?? 0;
      const failed = result.failed?.length ?? 0;
      if (done > 0) notify.success(`${plural(done, 'archivo subido', 'archivos subidos')}.`);
      if (failed > 0)
        notify.error(new Error(`${plural(failed, 'archivo no se pudo subir', 'archivos no se pudieron subir')}.`));
    });
    uppyRef.current = instance;
    return () => {
      uppyRef.current = null;
      instance.destroy();
      setUploading(false);
    };
  }, [setUploading]);

  const addFiles = (files: File[]) => {
    const uppy = uppyRef.current;
    if (!uppy || files.length === 0) return;
    if (files.some((file) => isTooLargeToUpload(file.size))) {
      setRefusal(FILE_TOO_LARGE_MESSAGE);
      return;
    }
    setRefusal(null);
    const added: Item[] = [];
    for (const file of files) {
      const originalName = sanitizeFileName(file.name) || 'archivo';
      const extension = fileExtension(originalName);
      const objectName = `${crypto.randomUUID()}/${crypto.randomUUID()}${extension ? `.${extension}` : ''}`;
      const id = uppy.addFile({
        name: originalName,
        type: file.type,
        data: file,
        meta: {
          bucketName: deployment.storage.mediaBucket,
          objectName,
          contentType: file.type || 'application/octet-stream',
          cacheControl: 'no-cache',
          originalName,
        },
      });
      added.push({
        id,
        name: originalName,
        size: file.size,
        progress: 0,
        state: 'pending',
        preview: file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined,
      });
    }
    // A new batch starts a new list: finished uploads of the previous one are cleared (spec section 4).
    setItems((current) => [...current.filter((item) => item.state !== 'complete'), ...added]);
    setUploading(true);
    uppy.upload().catch((error: unknown) => setRefusal(spanishError(error, UPLOAD_FAILED)));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    addFiles([...event.dataTransfer.files]);
  };

  return (
    <section className="page">
      <h1>Subir Archivos</h1>
      <div className="drop-zone" onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
        <p>Arrastrar archivos aquí o</p>
        <button type="button" className="button button-primary" onClick={() => inputRef.current?.click()}>
          Seleccionar archivos
        </button>
        <input
          ref={inputRef}
          type="file"
          multiple
          hidden
          aria-label="Seleccionar archivos"
          onChange={(event) => {
            addFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <ul className="upload-list" aria-label="Subidas">
        {items.map((item) => (
          <li key={item.id} className={`upload-item upload-${item.state}`}>
            {items.length < THUMBNAIL_LIMIT && item.preview ? (
              <img src={item.preview} alt="" width={48} height={48} className="upload-thumb" />
            ) : (
              <span className="upload-thumb" aria-hidden="true" />
            )}
            <span className="upload-name" title={item.name}>
              {item.name}
            </span>
            <span className="muted">{formatSize(item.size)}</span>
            <progress max={1} value={item.progress} aria-label={`Progreso de ${item.name}`} />
            <span className="upload-state">
              {item.state === 'complete'
                ? 'Subido'
                : item.state === 'error'
                  ? 'Error'
                  : `${Math.floor(item.progress * 100)} %`}
            </span>
            {item.state === 'error' && <span className="form-error upload-message">{item.message}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
