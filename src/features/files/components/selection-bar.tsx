import { useEffect, useRef, useState } from 'react';
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
import { plural, pluralWord } from '../../../lib/plural.ts';
import { ConfirmDialog, trashQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { ShareLinkDialog } from '../../../components/share-link/share-link-dialog.tsx';
import { filesZipPages } from '../../../lib/zip/files-zip-pages.ts';
import { useZipDownload } from '../../../lib/zip/use-zip-download.ts';

/** Typing in a field or working in a dialog: Delete is theirs, not the selection's. */
const deleteKeyIsElsewhere = (event: KeyboardEvent) =>
  Boolean((event.target as HTMLElement | null)?.closest('input, textarea, select, [contenteditable="true"]')) ||
  Boolean(document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]'));

/**
 * The bar shown while files are selected, sticky at the top of the window and one row at
 * any width, like a photo app's: × and the count, then the actions. On a wide screen every action is a
 * button; on a phone 'Editar tags' stays a button and the rest are in the 'Más acciones' menu, the collections
 * listed in it under 'Añadir a colección...'. The Delete
 * key asks to delete the selection (admins).
 */
export function SelectionBar({ selection, onClear }: { selection: FileSelection; onClear: () => void }) {
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [sharing, setSharing] = useState(false);
  const summary = useQuery(selectionSummaryQuery(selection));
  const collections = useQuery({ ...collectionsQuery, enabled: isAdmin });
  const publish = usePublishFiles();
  const remove = useDeleteFiles();
  const addToCollection = useAddFilesToCollection();
  const zip = useZipDownload();

  const count = summary.data?.count ?? (selection.kind === 'ids' ? selection.ids.length : 0);
  const published = summary.data?.published ?? 0;
  const busy = publish.isPending || remove.isPending || addToCollection.isPending;
  const withCollections = isAdmin && isEnabled('collections');
  // Until the summary is known the question would say '0 archivos' and could not refuse processing files.
  const canAskToDelete = isAdmin && !busy && Boolean(summary.data);

  const askToDelete = () => {
    setRefusal(null);
    if ((summary.data?.undeletable ?? 0) > 0) setRefusal(PROCESSING_DELETE_MESSAGE);
    else setConfirming(true);
  };
  const askToDeleteRef = useRef(askToDelete);
  useEffect(() => {
    askToDeleteRef.current = askToDelete;
  });
  useEffect(() => {
    if (!canAskToDelete) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Delete' || event.defaultPrevented || deleteKeyIsElsewhere(event)) return;
      event.preventDefault();
      askToDeleteRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [canAskToDelete]);

  const editTags = () => navigate(paths.editTagsFiles, { state: { selection, count } });
  // The archive is built in this tab from the originals' signed URLs and saved as it is written.
  const downloadZip = () => {
    const picked = selection.kind === 'ids' ? { fileIds: selection.ids } : { filter: { ...selection.filters } };
    const today = new Date().toISOString().slice(0, 10);
    zip.start({ fileName: `mediateca-${today}.zip`, fetchPage: filesZipPages(picked), totalFiles: count || undefined });
  };
  const setPublished = (value: boolean) => publish.mutate({ selection, published: value });
  const addCollection = (collection: Collection) => addToCollection.mutate({ selection, collection });
  const showDeactivate = isAdmin && published > 0;
  const showActivate = isAdmin && published < count;

  return (
    <div className="selection-bar" role="region" aria-label="Archivos seleccionados">
      <button
        type="button"
        className="selection-clear"
        aria-label="Deseleccionar"
        title="Deseleccionar (Esc)"
        onClick={onClear}
      >
        <span aria-hidden="true">×</span>
      </button>
      {/* Number and word apart: on a phone the word goes under the number rather than being cut short. */}
      <strong className="selection-count" aria-live="polite">
        <span>{count.toLocaleString('es-ES')}</span>{' '}
        <span className="selection-count-word">{pluralWord(count, 'seleccionado', 'seleccionados')}</span>
      </strong>
      <div className="selection-actions-inline">
        {showDeactivate && (
          <button type="button" className="button" disabled={busy} onClick={() => setPublished(false)}>
            Desactivar
          </button>
        )}
        {showActivate && (
          <button type="button" className="button" disabled={busy} onClick={() => setPublished(true)}>
            Activar
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={zip.status !== null}
          aria-busy={zip.status !== null}
          title={zip.status ?? undefined}
          onClick={downloadZip}
        >
          Descargar ZIP
        </button>
        {isAdmin && (
          <button type="button" className="button selection-share-inline" onClick={() => setSharing(true)}>
            Compartir enlace
          </button>
        )}
        {withCollections && (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="button" disabled={busy}>
              Añadir a colección...
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" sideOffset={4} align="end" collisionPadding={8}>
                <CollectionItems collections={collections.data} onAdd={addCollection} />
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        )}
      </div>
      <button
        type="button"
        className="button selection-edit-tags"
        aria-label={`Editar tags ${count} archivo(s)`}
        onClick={editTags}
      >
        Editar tags<span className="selection-wide-only"> {count} archivo(s)</span>
      </button>
      {isAdmin && (
        <button
          type="button"
          className="button button-danger selection-delete"
          disabled={!canAskToDelete}
          aria-keyshortcuts="Delete"
          onClick={askToDelete}
        >
          Borrar
        </button>
      )}
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="button selection-more" aria-label="Más acciones">
          <span aria-hidden="true">⋯</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" sideOffset={4} align="end" collisionPadding={8}>
            {showDeactivate && (
              <DropdownMenu.Item className="menu-item" disabled={busy} onSelect={() => setPublished(false)}>
                Desactivar
              </DropdownMenu.Item>
            )}
            {showActivate && (
              <DropdownMenu.Item className="menu-item" disabled={busy} onSelect={() => setPublished(true)}>
                Activar
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item className="menu-item" disabled={zip.status !== null} onSelect={downloadZip}>
              Descargar ZIP
            </DropdownMenu.Item>
            {isAdmin && (
              <DropdownMenu.Item className="menu-item" onSelect={() => setSharing(true)}>
                Compartir enlace
              </DropdownMenu.Item>
            )}
            {/* The collections listed in this menu, not in a submenu: on a phone a submenu has no room beside it. */}
            {withCollections && (
              <DropdownMenu.Group className="menu-group">
                <DropdownMenu.Separator className="menu-separator" />
                <DropdownMenu.Label className="menu-label">Añadir a colección...</DropdownMenu.Label>
                <CollectionItems collections={collections.data} onAdd={addCollection} disabled={busy} />
                <DropdownMenu.Separator className="menu-separator" />
              </DropdownMenu.Group>
            )}
            {isAdmin && (
              <DropdownMenu.Item
                className="menu-item menu-item-danger"
                disabled={!canAskToDelete}
                onSelect={askToDelete}
              >
                Borrar
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
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
        <ShareLinkDialog
          open={sharing}
          onOpenChange={setSharing}
          target={
            selection.kind === 'ids'
              ? { kind: 'files', fileIds: selection.ids }
              : { kind: 'filtered', filter: { ...selection.filters } }
          }
          defaultName={`Enlace de ${plural(count, 'archivo', 'archivos')}`}
        />
      )}
      {refusal && (
        <p className="form-error selection-refusal" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}

interface Collection {
  id: string;
  name: string;
}

function CollectionItems({
  collections = [],
  onAdd,
  disabled = false,
}: {
  collections?: Collection[];
  onAdd: (collection: Collection) => void;
  disabled?: boolean;
}) {
  if (collections.length === 0) {
    return (
      <DropdownMenu.Item className="menu-item" disabled>
        No hay colecciones
      </DropdownMenu.Item>
    );
  }
  return collections.map((collection) => (
    <DropdownMenu.Item key={collection.id} className="menu-item" disabled={disabled} onSelect={() => onAdd(collection)}>
      {collection.name}
    </DropdownMenu.Item>
  ));
}
