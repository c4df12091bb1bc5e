import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'react-router-dom';
import { fileKeys } from '../api/keys.ts';
import { searchFiles } from '../api/search-files.ts';
import { DEFAULT_SORT, SORTS, useFileFilters } from '../hooks/use-file-filters.ts';
import { FileThumbnail } from './file-thumbnail.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { FileInfoButton } from './file-info-button.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import type { FileSelection } from '../api/bulk-actions.ts';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { getTags } from '../../../lib/catalogue/get-catalogue.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { paths } from '../../../config/paths.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

/** Spec section 9: 100 first, more as the user nears the end of what is loaded. */
const FIRST_PAGE = 100;
const NEXT_PAGE = 50;
const SEARCH_DEBOUNCE_MS = 750;
const SEARCH_MIN_LENGTH = 3;
const ROW_HEIGHT = 300;
const CARD_MIN_WIDTH = 200;

function SearchBox({ value, onSearch }: { value: string; onSearch: (query: string | null) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => {
    const trimmed = text.trim();
    // Spec section 5: search applies when empty or at least 3 characters, after a 750 ms pause.
    if (trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH) return;
    const timer = setTimeout(() => onSearch(trimmed || null), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <label className="filter filter-search">
      <span>Buscar</span>
      <input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Nombre, descripción, etiqueta…"
      />
    </label>
  );
}

export function FilesScreen() {
  const isAdmin = useIsAdmin();
  const { filters, sort, setFilter, clear, active } = useFileFilters();
  const tags = useQuery({ queryKey: catalogueKeys.tags, queryFn: ({ signal }) => getTags(signal) });
  const query = useInfiniteQuery({
    queryKey: fileKeys.list(filters, sort),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      searchFiles(filters, sort, { limit: pageParam === 0 ? FIRST_PAGE : NEXT_PAGE, offset: pageParam }, signal),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.files.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
  const files = query.data?.pages.flatMap((page) => page.files) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;

  // The selection belongs to one filtered list: when filters or sort change it is gone (spec section 4).
  const listKey = JSON.stringify([filters, sort]);
  const [picked, setPicked] = useState<{ listKey: string; ids: string[]; all: boolean }>({
    listKey,
    ids: [],
    all: false,
  });
  const current = picked.listKey === listKey ? picked : { listKey, ids: [], all: false };
  const lastClicked = useRef<number | null>(null);
  const selection: FileSelection | null = current.all
    ? { kind: 'filtered', filters }
    : current.ids.length > 0
      ? { kind: 'ids', ids: current.ids }
      : null;
  const toggle = (index: number, shift: boolean) => {
    const file = files[index];
    if (!file) return;
    const ids = new Set(current.all ? files.map((f) => f.id) : current.ids);
    if (shift && lastClicked.current !== null) {
      const [from, to] = [Math.min(lastClicked.current, index), Math.max(lastClicked.current, index)];
      for (const f of files.slice(from, to + 1)) ids.add(f.id);
    } else if (ids.has(file.id)) {
      ids.delete(file.id);
    } else {
      ids.add(file.id);
    }
    lastClicked.current = index;
    setPicked({ listKey, ids: [...ids], all: false });
  };
  const isSelected = (id: string) => current.all || current.ids.includes(id);

  const gridRef = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  const [offsetTop, setOffsetTop] = useState(0);
  useLayoutEffect(() => {
    const element = gridRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      setColumns(Math.max(1, Math.floor((entry?.contentRect.width ?? 800) / CARD_MIN_WIDTH)));
      setOffsetTop(element.getBoundingClientRect().top + window.scrollY);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rows = Math.ceil(files.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => ROW_HEIGHT,
    overscan: 3,
    scrollMargin: offsetTop,
  });
  const items = virtualizer.getVirtualItems();
  const lastRow = items[items.length - 1]?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    // Load more when the last rendered row is within about 300 px (one row) of the end.
    if (hasNextPage && !isFetchingNextPage && lastRow >= rows - 2) void fetchNextPage();
  }, [lastRow, rows, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <section className="page">
      <h1>
        <span data-testid="files-count">{query.isPending ? '…' : total}</span> archivos filtrados
      </h1>
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SearchBox key={filters.query ?? ''} value={filters.query ?? ''} onSearch={(value) => setFilter('q', value)} />
        <label className="filter">
          <span>Tipo</span>
          <select
            value={filters.type ?? 'all'}
            onChange={(event) => setFilter('type', event.target.value === 'all' ? null : event.target.value)}
          >
            <option value="all">Todos</option>
            <option value="image">Imágenes</option>
            <option value="not-image">Documentos</option>
          </select>
        </label>
        <label className="filter">
          <span>Etiqueta</span>
          <select value={filters.tagId ?? ''} onChange={(event) => setFilter('tag', event.target.value || null)}>
            <option value="">Cualquier etiqueta</option>
            {(tags.data ?? []).map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name_es}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Orden</span>
          <select
            value={sort}
            onChange={(event) => setFilter('sort', event.target.value === DEFAULT_SORT ? null : event.target.value)}
          >
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Estado</span>
          <select
            value={filters.status ?? 'all'}
            onChange={(event) => setFilter('status', event.target.value === 'all' ? null : event.target.value)}
          >
            <option value="all">Todos</option>
            <option value="published">Activos</option>
            <option value="unpublished">No activos</option>
          </select>
        </label>
        {isEnabled('operations') && (
          <label className="filter">
            <span>Operaciones</span>
            <select
              value={filters.operations ?? 'all'}
              onChange={(event) => setFilter('operations', event.target.value === 'all' ? null : event.target.value)}
            >
              <option value="all">Todos</option>
              <option value="OPERATIONS">Operaciones</option>
            </select>
          </label>
        )}
        <button type="button" className="button" onClick={clear} disabled={!active}>
          Quitar filtros
        </button>
      </form>
      <div className="selection-actions">
        <button
          type="button"
          className="button"
          disabled={total === 0}
          onClick={() => setPicked({ listKey, ids: [], all: true })}
        >
          Seleccionar todos ({total})
        </button>
      </div>
      {selection && <SelectionBar selection={selection} onClear={() => setPicked({ listKey, ids: [], all: false })} />}
      {query.isError && <p role="alert">No se pudieron cargar los archivos.</p>}
      {query.isPending && <Spinner label="Cargando archivos…" />}
      <div ref={gridRef} className="file-grid-virtual" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((row) => (
          <ul
            key={row.key}
            className="file-grid"
            style={{
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
            }}
          >
            {files.slice(row.index * columns, row.index * columns + columns).map((file, column) => (
              <li key={file.id} className={`file-card ${isSelected(file.id) ? 'file-card-selected' : ''}`}>
                <input
                  type="checkbox"
                  className="file-select"
                  aria-label={`Seleccionar ${file.name_es}`}
                  checked={isSelected(file.id)}
                  onChange={() => {}}
                  onClick={(event) => toggle(row.index * columns + column, event.shiftKey)}
                />
                <Link to={paths.file(file.id)}>
                  <FileThumbnail file={file} />
                  <span className="file-name">{file.name_es}</span>
                </Link>
                {isAdmin && <FileInfoButton file={file} />}
                <span className="muted">
                  {formatSize(file.size)} · {formatDateTime(file.uploaded_on)}
                </span>
              </li>
            ))}
          </ul>
        ))}
      </div>
      {isFetchingNextPage && <Spinner label="Cargando más archivos…" />}
    </section>
  );
}
