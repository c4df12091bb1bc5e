import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * While a form has unsaved changes, leaving it asks first: another screen of the app through a calm dialog
 * ('Seguir editando' keeps the focus), closing or reloading the tab through the browser's own question.
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      trigger={null}
      title="¿Salir sin guardar?"
      description="Tienes cambios sin guardar. Si sales ahora, se perderán."
      cancelLabel="Seguir editando"
      confirmLabel="Salir sin guardar"
      onConfirm={() => blocker.proceed?.()}
    />
  );
}
