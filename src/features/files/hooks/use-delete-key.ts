import { useEffect, useRef } from 'react';

/** Typing in a field or working in a dialog: Delete is theirs, not the selection's. */
const deleteKeyIsElsewhere = (event: KeyboardEvent) =>
  Boolean((event.target as HTMLElement | null)?.closest('input, textarea, select, [contenteditable="true"]')) ||
  Boolean(document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]'));

/** The Delete key anywhere on the page calls `onDelete` while `enabled`, unless a field or dialog has it. */
export function useDeleteKey(enabled: boolean, onDelete: () => void) {
  const onDeleteRef = useRef(onDelete);
  useEffect(() => {
    onDeleteRef.current = onDelete;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Delete' || event.defaultPrevented || deleteKeyIsElsewhere(event)) return;
      event.preventDefault();
      onDeleteRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
