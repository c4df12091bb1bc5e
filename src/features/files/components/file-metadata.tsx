import type { FileDetail } from '../api/get-file-detail.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** 'Canon EOS R5 · RF24-70mm F2.8': the model usually repeats the make, which is then said once. */
function cameraOf(metadata: NonNullable<FileDetail['file_metadata']>): string | null {
  const make = metadata.camera_make?.trim() ?? '';
  const model = metadata.camera_model?.trim() ?? '';
  const body = model.toLowerCase().startsWith(make.toLowerCase()) ? model : `${make} ${model}`.trim();
  const lens = metadata.lens?.trim();
  return [body, lens].filter(Boolean).join(' · ') || null;
}

const coordinate = new Intl.NumberFormat('es-ES', { minimumFractionDigits: 5, maximumFractionDigits: 5 });

/**
 * 'Metadatos': what the picture says about itself, read by post-processing (capture date, camera, size in
 * pixels, and where it was taken, which only the staff who may read the file ever see).
 */
export function FileMetadata({ file }: { file: FileDetail }) {
  const metadata = file.file_metadata;
  const camera = metadata && cameraOf(metadata);
  const position =
    metadata?.gps_latitude != null && metadata.gps_longitude != null
      ? { latitude: metadata.gps_latitude, longitude: metadata.gps_longitude }
      : null;
  if (!file.captured_at && !camera && !file.width && !position) return null;
  return (
    <section className="file-metadata" aria-labelledby="file-metadata-title">
      <h2 id="file-metadata-title">Metadatos</h2>
      <dl className="file-facts">
        <dt>Fecha de captura</dt>
        <dd>{file.captured_at ? formatDateTime(file.captured_at) : '—'}</dd>
        <dt>Cámara</dt>
        <dd>{camera ?? '—'}</dd>
        {file.width && file.height && (
          <>
            <dt>Dimensiones</dt>
            <dd>
              {file.width} × {file.height} px
            </dd>
          </>
        )}
        {position && (
          <>
            <dt>Ubicación</dt>
            <dd>
              <a
                href={`https://www.openstreetmap.org/?mlat=${position.latitude}&mlon=${position.longitude}#map=16/${position.latitude}/${position.longitude}`}
                target="_blank"
                rel="noreferrer"
              >
                {coordinate.format(position.latitude)}, {coordinate.format(position.longitude)}
                <span className="visually-hidden"> (abre el mapa en otra pestaña)</span>
              </a>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
