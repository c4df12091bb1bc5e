import { useQuery } from '@tanstack/react-query';
import { fileHistoryQuery } from '../api/get-file-history.ts';
import { describeHistory } from '../lib/describe-history.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';

/** Historial: who changed what and when, newest first, as the database recorded it. */
export function FileHistory({ fileId }: { fileId: string }) {
  const history = useQuery(fileHistoryQuery(fileId));
  return (
    <section className="file-history" aria-labelledby="file-history-title">
      <h2 id="file-history-title">Historial</h2>
      {history.isPending && <SkeletonList rows={3} label="Cargando el historial…" />}
      {history.isError && <p className="form-error">No se pudo cargar el historial.</p>}
      {history.data?.length === 0 && <p className="muted">Todavía no hay cambios registrados.</p>}
      {history.data && history.data.length > 0 && (
        <ol className="file-history-list">
          {history.data.map((entry) => {
            const { title, details } = describeHistory(entry.action, (entry.changes ?? {}) as Record<string, unknown>);
            return (
              <li key={entry.id}>
                <p className="file-history-title">{title}</p>
                {details.length > 0 && (
                  <ul className="file-history-details">
                    {details.map((detail) => (
                      <li key={detail}>{detail}</li>
                    ))}
                  </ul>
                )}
                <p className="muted file-history-meta">
                  {entry.changed_by_email ?? 'El sistema'} · {formatDateTime(entry.changed_at)}
                </p>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
