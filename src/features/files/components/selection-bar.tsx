import type { FileSelection } from '../api/selection.ts';
import { useSelectionActions } from '../hooks/use-selection-actions.ts';
import { InlineSelectionActions, MoreSelectionActions } from './selection-actions.tsx';
import { ChangeTagsDialog } from './change-tags-dialog.tsx';
import { plural, pluralWord } from '../../../lib/plural.ts';
import { ConfirmDialog, trashQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { ShareLinkDialog } from '../../../components/share-link/share-link-dialog.tsx';

/**
 * The bar shown while files are selected, sticky at the top of the window and one row at
 * any width, like a photo app's: × and the count, then the actions. On a wide screen every action is a
 * button; on a phone 'Editar tags' stays a button and the rest are in the 'Más acciones' menu, the collections
 * listed in it under 'Añadir a colección...'. The Delete
 * key asks to delete the selection (admins).
 */
export function SelectionBar({ selection, onClear }: { selection: FileSelection; onClear: () => void }) {
  const actions = useSelectionActions(selection, onClear);
  const { isAdmin, count } = actions;

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
      <InlineSelectionActions actions={actions} />
      <button
        type="button"
        className="button selection-edit-tags"
        aria-label={`Editar tags ${count} archivo(s)`}
        onClick={actions.editTags}
      >
        Editar tags<span className="selection-wide-only"> {count} archivo(s)</span>
      </button>
      {isAdmin && (
        <button
          type="button"
          className="button button-danger selection-delete"
          disabled={!actions.canAskToDelete}
          aria-keyshortcuts="Delete"
          onClick={actions.askToDelete}
        >
          Borrar
        </button>
      )}
      <MoreSelectionActions actions={actions} />
      {isAdmin && (
        <ConfirmDialog
          open={actions.confirming}
          onOpenChange={actions.setConfirming}
          trigger={null}
          title="Borrar archivos"
          description={trashQuestion(plural(count, 'archivo', 'archivos'), count)}
          onConfirm={actions.confirmDelete}
        />
      )}
      <ChangeTagsDialog
        change={actions.tagging}
        count={count}
        pending={actions.changingTags}
        onClose={() => actions.setTagging(null)}
        onApply={actions.changeTags}
      />
      {isAdmin && (
        <ShareLinkDialog
          open={actions.sharing}
          onOpenChange={actions.setSharing}
          target={
            selection.kind === 'ids'
              ? { kind: 'files', fileIds: selection.ids }
              : { kind: 'filtered', filter: { ...selection.filters } }
          }
          defaultName={`Enlace de ${plural(count, 'archivo', 'archivos')}`}
        />
      )}
      {actions.refusal && (
        <p className="form-error selection-refusal" role="alert">
          {actions.refusal}
        </p>
      )}
    </div>
  );
}
