interface FilesHeadingProps {
  total: number;
  counting: boolean;
  /** Every file of the list is selected: the button then clears the selection. */
  everythingSelected: boolean;
  onSelectAll: () => void;
  onClear: () => void;
}

/** The screen's heading: how many files the filters match, and the button that selects them all or none. */
export function FilesHeading({ total, counting, everythingSelected, onSelectAll, onClear }: FilesHeadingProps) {
  return (
    <div className="files-heading">
      <h1>
        <span data-testid="files-count">{counting ? '…' : total}</span>{' '}
        {total === 1 && !counting ? 'archivo filtrado' : 'archivos filtrados'}
      </h1>
      {/* On a phone the button says 'Todos' beside the count, so the heading stays one row (filter-bar.css). */}
      {/* One button either way, so the focus stays on it when it turns into 'Deseleccionar todos'. */}
      <button
        type="button"
        className="button select-all"
        disabled={total === 0}
        onClick={everythingSelected ? onClear : onSelectAll}
        aria-label={everythingSelected ? 'Deseleccionar todos' : `Seleccionar todos (${total})`}
      >
        {!everythingSelected && (
          <svg className="select-all-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
            <rect x="1.5" y="1.5" width="13" height="13" rx="3" fill="none" stroke="currentColor" strokeWidth="1.6" />
            <path d="M4.5 8.2l2.3 2.3 4.7-4.9" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
        )}
        <span className="select-all-wide" aria-hidden="true">
          {everythingSelected ? 'Deseleccionar todos' : `Seleccionar todos (${total})`}
        </span>
        <span className="select-all-narrow" aria-hidden="true">
          {everythingSelected ? 'Deseleccionar' : 'Todos'}
        </span>
      </button>
    </div>
  );
}
