import { useEffect, useRef } from 'react';

/** Typing in a field, or a dialog or menu open: the screen's own shortcuts stay out of the way. */
function isBusyElsewhere(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, textarea, select, [contenteditable="true"]')) return true;
  return Boolean(document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]'));
}

/**
 * The files screen's keys, as in a photo app: '/' goes to the search field, Escape clears the selection.
 * (Delete asks to delete the selection from the selection bar; arrows move in the grid and the lightbox.)
 */
export function useFilesKeyboard({ onEscape }: { onEscape: (() => void) | null }) {
  const onEscapeRef = useRef(onEscape);
  useEffect(() => {
    onEscapeRef.current = onEscape;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === '/' && !isBusyElsewhere(event)) {
        event.preventDefault();
        document.getElementById('files-search')?.focus();
      }
      if (event.key === 'Escape' && onEscapeRef.current && !isBusyElsewhere(event)) onEscapeRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
