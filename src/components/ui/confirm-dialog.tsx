import type { ReactNode } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';

interface ConfirmDialogProps {
  /** The element that opens the dialog (a button). */
  trigger: ReactNode;
  title: string;
  /** '¿Seguro que deseas borrar … Esta acción no se puede deshacer.' */
  description: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  /** Controlled use (e.g. opened from a menu item); omit for a dialog that owns its open state. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * Every destructive action asks first, in Spanish, in an accessible modal (focus trapped and returned,
 * Esc cancels) instead of window.confirm. Cancelar has the initial focus, so Enter never deletes by accident.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel = 'Borrar',
  cancelLabel = 'Cancelar',
  onConfirm,
  open,
  onOpenChange,
}: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">{description}</AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Cancel className="button">{cancelLabel}</AlertDialog.Cancel>
            <AlertDialog.Action className="button button-danger" onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** The product's deletion sentence for one named thing that is gone for good (it has no Papelera). */
export const deleteQuestion = (what: string) => `¿Seguro que deseas borrar ${what}? Esta acción no se puede deshacer.`;

/** Days a deleted file stays in the Papelera before the server purges it. */
export const TRASH_DAYS = 30;

/**
 * Deleting files moves them to the Papelera, from which they can be restored: the question says what happens
 * instead of 'no se puede deshacer', which is kept for 'Borrar definitivamente'.
 */
export const trashQuestion = (what: string, count = 1) =>
  `¿Seguro que deseas borrar ${what}? ${count === 1 ? 'Se moverá' : 'Se moverán'} a la Papelera durante ${TRASH_DAYS} días y se ${count === 1 ? 'podrá' : 'podrán'} restaurar desde allí.`;
