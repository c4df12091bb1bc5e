import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ConfirmDialog, deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { spanishError } from '../../../lib/errors.ts';
import { plural } from '../../../lib/plural.ts';
import { RETENTION_DAYS, TRASH_PAGE, trashedFilesQueryOptions } from '../api/get-trashed-files.ts';
import { useRestoreFiles } from '../api/restore-files.ts';
import { usePurgeFiles } from '../api/purge-files.ts';
import { useLiveTrash } from '../api/use-live-trash.ts';
import { TrashedFileRow } from './trashed-file-row.tsx';
import '../trash.css';

/**
 * /private/trash, 'Papelera': files deleted in the last 30 days, newest first, with who deleted
 * them and when; 'Restaurar' and 'Borrar definitivamente' one by one or for a selection.
 */
export function TrashScreen() {
  useLiveTrash();
  const trash = useQuery(trashedFilesQueryOptions());
  const restore = useRestoreFiles();
  const purge = usePurgeFiles();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const listed = trash.data?.files ?? [];
  // Only ids still listed count (another admin may have restored some meanwhile).
  const selectedIds = listed.filter((file) => selected.has(file.file_id)).map((file) => file.file_id);
  const allSelected = listed.length > 0 && selectedIds.length === listed.length;
  const busy = restore.isPending || purge.isPending;

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const act = (action: typeof restore | typeof purge, ids: string[]) =>
    action.mutate(ids, {
      onSuccess: () => setSelected((current) => new Set([...current].filter((id) => !ids.includes(id)))),
    });

  return (
    <section className="page trash-page">
      <PageHeader title="Papelera">
        <p className="muted">
          Los archivos borrados se guardan {RETENTION_DAYS} días con sus textos, etiquetas y colecciones; después se
          borran definitivamente.
        </p>
      </PageHeader>
      {trash.isPending ? (
        <SkeletonList rows={4} label="Cargando la papelera…" />
      ) : trash.isError ? (
        <p className="form-error" role="alert">
          {spanishError(trash.error)}
        </p>
      ) : listed.length === 0 ? (
        <EmptyState title="La papelera está vacía">
          Los archivos que borres en Archivos aparecerán aquí durante {RETENTION_DAYS} días.
        </EmptyState>
      ) : (
        <>
          <div className="trash-toolbar" role="group" aria-label="Selección">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={allSelected}
                onChange={(event) =>
                  setSelected(event.target.checked ? new Set(listed.map((file) => file.file_id)) : new Set())
                }
              />
              Seleccionar todos
            </label>
            <span className="muted" aria-live="polite">
              {selectedIds.length > 0
                ? plural(selectedIds.length, 'archivo seleccionado', 'archivos seleccionados')
                : plural(trash.data.total, 'archivo en la papelera', 'archivos en la papelera')}
            </span>
            {selectedIds.length > 0 && (
              <div className="trash-toolbar-actions">
                <button type="button" className="button" disabled={busy} onClick={() => act(restore, selectedIds)}>
                  Restaurar
                </button>
                <ConfirmDialog
                  trigger={
                    <button type="button" className="button button-danger" disabled={busy}>
                      Borrar definitivamente
                    </button>
                  }
                  title="Borrar definitivamente"
                  description={deleteQuestion(
                    `definitivamente ${plural(selectedIds.length, 'archivo', 'archivos')} de la papelera`,
                  )}
                  confirmLabel="Borrar definitivamente"
                  onConfirm={() => act(purge, selectedIds)}
                />
              </div>
            )}
          </div>
          <ul className="trash-list" aria-label="Archivos en la papelera">
            {listed.map((file) => (
              <TrashedFileRow
                key={file.file_id}
                file={file}
                selected={selected.has(file.file_id)}
                busy={busy}
                onSelect={(on) => toggle(file.file_id, on)}
                onRestore={() => act(restore, [file.file_id])}
                onPurge={() => act(purge, [file.file_id])}
              />
            ))}
          </ul>
          {trash.data.total > TRASH_PAGE && (
            <p className="muted">
              Se muestran los {TRASH_PAGE} borrados más recientes de {trash.data.total.toLocaleString('es-ES')}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
