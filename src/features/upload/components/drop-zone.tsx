import { useRef, useState, type DragEvent } from 'react';

/**
 * Where files are dropped or chosen. The whole zone takes a drop; its button opens the browser's picker.
 * Compact once files are listed, so the list is what the screen shows.
 */
export function DropZone({ onFiles, compact }: { onFiles: (files: File[]) => void; compact: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (files.length > 0) onFiles(files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files);
  };
  return (
    <div
      className={`upload-drop-zone${compact ? ' is-compact' : ''}${over ? ' is-over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <svg className="upload-drop-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
      </svg>
      <p>
        Arrastrar archivos aquí o{' '}
        <button type="button" className="button button-primary" onClick={() => input.current?.click()}>
          Seleccionar archivos
        </button>
      </p>
      {!compact && <p className="muted upload-drop-hint">Fotos, vídeos y documentos de hasta 1 GB.</p>}
      <input
        ref={input}
        className="upload-file-input"
        type="file"
        multiple
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          take(event.currentTarget.files);
          // The same files may be chosen again later (after 'Omitir', say).
          event.currentTarget.value = '';
        }}
      />
    </div>
  );
}
