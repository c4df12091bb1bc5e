import { useEffect, useRef, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 750;
export const SEARCH_MIN_LENGTH = 3;

/**
 * A search applies when the box is empty or holds at least 3 characters, 750 ms after the last keystroke;
 * 1 or 2 characters count as no search (with a hint), so the previous search's results do not stay under
 * the new text. It reports only a real change of the applied text: re-rendering the screen must never
 * re-arm the timer (that loop used to replace the URL every 750 ms and throw the page back to the top).
 *
 * The box is the source of truth for what the person types. The URL's value is taken into the box only
 * when it changed from elsewhere ('Quitar filtros', back, a shared link) and nobody is typing in it; a change
 * that is the echo of a search the box itself reported is not, because it arrives after the keys typed since
 * then: "jardin" typed while the cleared box's empty search was reaching the URL used to come back as "rdin".
 * A change from elsewhere can arrive late too (a navigation rendered as a transition waits behind every
 * keystroke on a slow machine), so while the person types it no longer replaces what they typed.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (query: string | null) => void }) {
  const [text, setText] = useState(value);
  const [appliedValue, setAppliedValue] = useState(value);
  const [reported, setReported] = useState<string | null>(null);
  // Typed into since the box last took the URL's value, while it still has the focus.
  const [typing, setTyping] = useState(false);
  if (value !== appliedValue) {
    setAppliedValue(value);
    if (value === reported) setReported(null);
    else if (value !== text.trim() && !typing) setText(value);
  }
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });
  const trimmed = text.trim();
  const tooShort = trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH;

  const wanted = tooShort ? '' : trimmed;

  useEffect(() => {
    if (wanted === value) return;
    const timer = setTimeout(() => {
      setReported(wanted);
      onSearchRef.current(wanted || null);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wanted, value]);
  return (
    <div className="filter-search">
      <label htmlFor="files-search" className="visually-hidden">
        Buscar
      </label>
      <svg className="filter-search-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
        <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M15.5 15.5L21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        id="files-search"
        type="search"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setTyping(true);
        }}
        onBlur={() => setTyping(false)}
        placeholder="Buscar archivos…"
        title="Busca en nombres, descripciones y etiquetas"
        aria-keyshortcuts="/"
        aria-describedby={tooShort ? 'files-search-hint' : undefined}
      />
      {tooShort && (
        <span id="files-search-hint" className="filter-hint" role="status">
          Escribe al menos {SEARCH_MIN_LENGTH} caracteres para buscar.
        </span>
      )}
    </div>
  );
}
