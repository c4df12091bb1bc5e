import '../files.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { fileListQuery } from '../api/search-files.ts';
import { fileCountQuery } from '../api/count-files.ts';
import { fileMonthsQuery } from '../api/get-file-months.ts';
import { sortDateColumn } from '../api/file-filters.ts';
import { useFileFilters } from '../hooks/use-file-filters.ts';
import { useFileSelection } from '../hooks/use-file-selection.ts';
import { FileFiltersBar, filterMenusModule } from './file-filters-bar.tsx';
import { useFilesKeyboard } from '../hooks/use-files-keyboard.ts';
import { FileGrid } from './file-grid.tsx';
import { RightsExpiringNotice } from './rights-expiring-notice.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { paths } from '../../../config/paths.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonGrid } from '../../../components/ui/skeleton.tsx';
import { onDemand } from '../../../lib/on-demand.ts';

// Shown only after a selection or a click on an image: they (and their Radix dialogs and menus) are not
// part of the first paint's JS; they download once the first page is on screen.
const selectionBarModule = onDemand(() => import('./selection-bar.tsx'));
const lightboxModule = onDemand(() => import('./lightbox.tsx'));

/** The files screen: the filtered count, the filters, the selection and the grid. */
export function FilesScreen() {
  const isAdmin = useIsAdmin();
  const fileFilters = useFileFilters();
  const { filters, sort, clear, active, from, setFrom } = fileFilters;
  const dateColumn = sortDateColumn(sort);
  const query = useInfiniteQuery(fileListQuery(filters, sort, dateColumn ? from : null));
  // The count runs beside the first page: the grid never waits for the whole match to be counted.
  const count = useQuery(fileCountQuery(filters));
  // The timeline's months (date sorts only) once the first page is there: they never hold up the first paint.
  const months = useQuery({ ...fileMonthsQuery(filters, sort), enabled: dateColumn !== null && query.isSuccess });
  // Kept from render to render until a page arrives: the count's answer alone must not lay the grid out again.
  const pages = query.data?.pages;
  const files = useMemo(() => pages?.flatMap((page) => page.files) ?? [], [pages]);
  const fileIds = useMemo(() => files.map((file) => file.id), [files]);
  const total = count.data ?? 0;
  const selection = useFileSelection(filters, sort, fileIds);
  // Every file of the list picked, by 'Seleccionar todos' or one by one: the button then offers the way back.
  const everythingSelected =
    selection.allSelected ||
    (total > 0 && selection.selection?.kind === 'ids' && selection.selection.ids.length >= total);
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  // Once opened, the lightbox stays mounted, so Radix can hand focus back to the card on closing.
  const [lightboxWanted, setLightboxWanted] = useState(false);
  const preview = useCallback((index: number | null) => {
    if (index !== null) setLightboxWanted(true);
    setPreviewIndex(index);
  }, []);

  const SelectionBar = selectionBarModule.useModule(selection.selection !== null)?.SelectionBar;
  const Lightbox = lightboxModule.useModule(lightboxWanted)?.Lightbox;
  const firstPageShown = query.isSuccess;
  useEffect(() => {
    if (!firstPageShown) return;
    selectionBarModule.preload();
    lightboxModule.preload();
    filterMenusModule.preload();
  }, [firstPageShown]);
  useFilesKeyboard({ onEscape: selection.selection ? selection.clear : null });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const { hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage } = query;
  const loadEarlier = useCallback(() => {
    if (hasPreviousPage && !isFetchingPreviousPage) void fetchPreviousPage();
  }, [hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage]);
  // The first month of the timeline is the top of the list: no need to start from it.
  const firstMonth = months.data?.[0]?.month;
  const loadMonth = useCallback(
    (month: string | null) => setFrom(month === firstMonth ? null : month),
    [firstMonth, setFrom],
  );

  return (
    <section className="page files-page">
      <div className="files-heading">
        <h1>
          <span data-testid="files-count">{count.isPending ? '…' : total}</span>{' '}
          {total === 1 && !count.isPending ? 'archivo filtrado' : 'archivos filtrados'}
        </h1>
        {/* On a phone the button says 'Todos' beside the count, so the heading stays one row (styles below). */}
        {/* One button either way, so the focus stays on it when it turns into 'Deseleccionar todos'. */}
        <button
          type="button"
          className="button select-all"
          disabled={total === 0}
          onClick={everythingSelected ? selection.clear : selection.selectAll}
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
      {isAdmin && <RightsExpiringNotice />}
      <FileFiltersBar {...fileFilters} />
      {selection.selection && SelectionBar && (
        <SelectionBar selection={selection.selection} onClear={selection.clear} />
      )}
      {(query.isError || count.isError) && (
        <p role="alert" className="form-error">
          No se pudieron cargar los archivos.{' '}
          <button
            type="button"
            className="link-button link-button-inline"
            onClick={() => void Promise.all([query.refetch(), count.refetch()])}
          >
            Reintentar
          </button>
        </p>
      )}
      {query.isPending && <SkeletonGrid label="Cargando archivos…" />}
      {query.isSuccess && files.length === 0 && active && (
        <EmptyState
          title="Ningún archivo coincide con estos filtros"
          action={
            <button type="button" className="button" onClick={clear}>
              Quitar todos los filtros
            </button>
          }
        >
          <p>Prueba con otras palabras o quita algún filtro.</p>
        </EmptyState>
      )}
      {query.isSuccess && files.length === 0 && !active && (
        <EmptyState
          title="Todavía no hay archivos"
          action={
            <Link className="button button-primary" to={paths.upload}>
              Subir Archivos
            </Link>
          }
        >
          <p>Las fotos y documentos que subas aparecerán aquí.</p>
        </EmptyState>
      )}
      <FileGrid
        files={files}
        isAdmin={isAdmin}
        isSelected={selection.isSelected}
        anySelected={selection.selection !== null}
        onToggle={selection.toggle}
        onPreview={preview}
        onNearEnd={loadMore}
        onNearStart={loadEarlier}
        dateColumn={dateColumn}
        months={months.data}
        onLoadMonth={loadMonth}
      />
      {isFetchingNextPage && <Spinner label="Cargando más archivos…" />}
      {lightboxWanted && Lightbox && <Lightbox files={files} index={previewIndex} onIndexChange={setPreviewIndex} />}
    </section>
  );
}
