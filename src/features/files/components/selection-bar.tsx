import { useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { selectionSummaryQuery } from '../api/get-selection-summary.ts';
import { usePublishFiles } from '../api/publish-files.ts';
import { PROCESSING_DELETE_MESSAGE, useDeleteFiles } from '../api/delete-files.ts';
import { useAddFilesToCollection } from '../api/add-files-to-collection.ts';
import type { FileSelection } from '../api/selection.ts';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { paths } from '../../../config/paths.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { plural } from '../../../lib/plural.ts';
import { ConfirmDialog, trashQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { downloadFilesZip } from '../../../lib/zip/download-files-zip.ts';
import { notify } from '../../../lib/notify.ts';

/**
 * The bar shown while files are selected (spec section 2), sticky at the top of the window: the count and
 * the bulk actions, admin ones for admins.
 */
export function SelectionBar({ selection, onClear }: { selection: FileSelection; onClear: () => void }) {
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const summary = useQuery(selectionSummaryQuery(selection));
  const collections = useQuery({ ...collectionsQuery, enabled: isAdmin });
  const publish = usePublishFiles();
  const remove = useDeleteFiles();
  const addToCollection = useAddFilesToCollection();

  const count = summary.data?.count ?? (selection.kind === 'ids' ? selection.ids.length : 0);
  const published = summary.data?.published ?? 0;
  const busy = publish.isPending || remove.isPending || addToCollection.isPending;

  const askToDelete = () => {
    setRefusal(null);
    if ((summary.data?.undeletable ?? 0) > 0) setRefusal(PROCESSING_DELETE_MESSAGE);
    else setConfirming(true);
  };

  return (
    <div className="selection-bar" role="region" aria-label="Archivos seleccionados">
      <strong aria-live="polite">{plural(count, 'seleccionado', 'seleccionados')}</strong>
      {isAdmin && published > 0 && (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => publish.mutate({ selection, published: false })}
        >
          Desactivar
        </button>
      )}
      {isAdmin && published < count && (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => publish.mutate({ selection, published: true })}
        >
          Activar
        </button>
      )}
      {isAdmin && (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={null}
          title="Borrar archivos"
          description={trashQuestion(plural(count, 'archivo', 'archivos'), count)}
          onConfirm={() => remove.mutate(selection, { onSuccess: onClear })}
        />
      )}
      {isAdmin && (
        // Until the summary is known the question would say '0 archivos' and could not refuse processing files.
        <button type="button" className="button button-danger" disabled={busy || !summary.data} onClick={askToDelete}>
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
      <button
        type="button"
        className="button"
        onClick={() => {
          const zip = selection.kind === 'ids' ? { fileIds: selection.ids } : { filter: { ...selection.filters } };
          downloadFilesZip(zip).then(
            () => notify.info('Preparando el ZIP: la descarga empezará en unos segundos.'),
            (error: unknown) => notify.error(error, 'No se pudo descargar el ZIP.'),
          );
        }}
      >
        Descargar ZIP
      </button>
      {isAdmin && isEnabled('collections') && (
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="button" disabled={busy}>
            Añadir a colección...
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" sideOffset={4} align="start" collisionPadding={8}>
              {(collections.data ?? []).length === 0 && (
                <DropdownMenu.Item className="menu-item" disabled>
                  No hay colecciones
                </DropdownMenu.Item>
              )}
              {(collections.data ?? []).map((collection) => (
                <DropdownMenu.Item
                  key={collection.id}
                  className="menu-item"
                  onSelect={() => addToCollection.mutate({ selection, collection })}
                >
                  {collection.name}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}
