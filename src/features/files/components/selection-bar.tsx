import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import {
  addFilesToCollection,
  deleteFiles,
  getSelectionSummary,
  publishFiles,
  type FileSelection,
} from '../api/bulk-actions.ts';
import { requestFeedRegeneration } from '../../../lib/background-jobs.ts';
import { fileKeys } from '../api/keys.ts';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { getCollections } from '../../../lib/catalogue/get-catalogue.ts';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { paths } from '../../../config/paths.ts';
import { isEnabled } from '../../../config/deployment.ts';

export const PROCESSING_DELETE_MESSAGE = 'No se pueden borrar archivos en proceso';

/** The bar shown while files are selected (spec section 2): counts and bulk actions, admin ones for admins. */
export function SelectionBar({ selection, onClear }: { selection: FileSelection; onClear: () => void }) {
  const isAdmin = useIsAdmin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  const summary = useQuery({
    queryKey: [...fileKeys.all, 'selection', selection],
    queryFn: ({ signal }) => getSelectionSummary(selection, signal),
  });
  const collections = useQuery({
    queryKey: catalogueKeys.collections,
    queryFn: ({ signal }) => getCollections(signal),
    enabled: isAdmin,
  });
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: fileKeys.all });
    requestFeedRegeneration();
  };
  const publish = useMutation({
    mutationFn: (published: boolean) => publishFiles(selection, published),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => deleteFiles(selection),
    onSuccess: async () => {
      onClear();
      await done();
    },
    onError: (error: { hint?: string }) =>
      setMessage(error.hint === 'FILES_PROCESSING' ? PROCESSING_DELETE_MESSAGE : 'No se pudieron borrar los archivos.'),
  });
  const addToCollection = useMutation({
    mutationFn: (id: string) => addFilesToCollection(selection, id),
    onSuccess: done,
  });

  const count = summary.data?.count ?? (selection.kind === 'ids' ? selection.ids.length : 0);
  const published = summary.data?.published ?? 0;
  const busy = publish.isPending || remove.isPending || addToCollection.isPending;

  const confirmDelete = () => {
    setMessage(null);
    if ((summary.data?.undeletable ?? 0) > 0) {
      setMessage(PROCESSING_DELETE_MESSAGE);
      return;
    }
    if (window.confirm(`¿Seguro que deseas borrar ${count} archivo(s)? Esta acción no se puede deshacer.`))
      remove.mutate();
  };

  return (
    <div className="selection-bar" role="region" aria-label="Archivos seleccionados">
      <strong>{count} seleccionados</strong>
      {isAdmin && published > 0 && (
        <button type="button" className="button" disabled={busy} onClick={() => publish.mutate(false)}>
          Desactivar
        </button>
      )}
      {isAdmin && published < count && (
        <button type="button" className="button" disabled={busy} onClick={() => publish.mutate(true)}>
          Activar
        </button>
      )}
      {isAdmin && (
        <button type="button" className="button button-danger" disabled={busy} onClick={confirmDelete}>
          Borrar
        </button>
      )}
      <button type="button" className="button" onClick={onClear}>
        Deseleccionar
      </button>
      <button
        type="button"
        className="button"
        onClick={() => navigate(paths.editTagsFiles, { state: { selection, count } })}
      >
        Editar tags {count} archivo(s)
      </button>
      {isAdmin && isEnabled('collections') && (
        <label className="filter">
          <span className="visually-hidden">Añadir a colección</span>
          <select
            value=""
            disabled={busy}
            onChange={(event) => event.target.value && addToCollection.mutate(event.target.value)}
          >
            <option value="">Añadir a colección...</option>
            {(collections.data ?? []).map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {message && (
        <p className="form-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
