import '../files.css';
import { useCallback, useEffect, useState } from 'react';
import { useFileFilters } from '../hooks/use-file-filters.ts';
import { useFileList } from '../hooks/use-file-list.ts';
import { useFileSelection } from '../hooks/use-file-selection.ts';
import { useFilesKeyboard } from '../hooks/use-files-keyboard.ts';
import { FileFiltersBar, filterMenusModule } from './file-filters-bar.tsx';
import { FileGrid } from './file-grid.tsx';
import { FilesHeading } from './files-heading.tsx';
import { FilesEmpty, FilesLoadError } from './files-list-status.tsx';
import { RightsExpiringNotice } from './rights-expiring-notice.tsx';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { SkeletonGrid } from '../../../components/ui/skeleton.tsx';
import { onDemand } from '../../../lib/on-demand.ts';

// Shown only after a selection or a click on an image: they (and their Radix dialogs and menus) are not
// part of the first paint's JS; they download once the first page is on screen.
const selectionBarModule = onDemand(() => import('./selection-bar.tsx'));
const lightboxModule = onDemand(() => import('./lightbox.tsx'));

/**
 * The file shown large, if any. Once opened, the lightbox stays mounted, so Radix can hand focus back to the card
 * on closing.
 */
function usePreview() {
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [lightboxWanted, setLightboxWanted] = useState(false);
  const preview = useCallback((index: number | null) => {
    if (index !== null) setLightboxWanted(true);
    setPreviewIndex(index);
  }, []);
  return { previewIndex, setPreviewIndex, lightboxWanted, preview };
}

/** The files screen: the filtered count, the filters, the selection and the grid. */
export function FilesScreen() {
  const isAdmin = useIsAdmin();
  const fileFilters = useFileFilters();
  const { filters, sort, clear, active } = fileFilters;
  const list = useFileList(fileFilters);
  const { query, count, files } = list;
  const total = count.data ?? 0;
  const selection = useFileSelection(filters, sort, list.fileIds);
  const { previewIndex, setPreviewIndex, lightboxWanted, preview } = usePreview();

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

  return (
    <section className="page files-page">
      <FilesHeading
        total={total}
        counting={count.isPending}
        everythingSelected={selection.everythingSelected(total)}
        onSelectAll={selection.selectAll}
        onClear={selection.clear}
      />
      {isAdmin && <RightsExpiringNotice />}
      <FileFiltersBar {...fileFilters} />
      {selection.selection && SelectionBar && (
        <SelectionBar selection={selection.selection} onClear={selection.clear} />
      )}
      {(query.isError || count.isError) && <FilesLoadError onRetry={list.retry} />}
      {query.isPending && <SkeletonGrid label="Cargando archivos…" />}
      {query.isSuccess && files.length === 0 && <FilesEmpty filtered={active} onClearFilters={clear} />}
      <FileGrid
        files={files}
        isAdmin={isAdmin}
        isSelected={selection.isSelected}
        anySelected={selection.selection !== null}
        onToggle={selection.toggle}
        onPreview={preview}
        onNearEnd={list.loadMore}
        onNearStart={list.loadEarlier}
        dateColumn={list.dateColumn}
        months={list.months.data}
        onLoadMonth={list.loadMonth}
      />
      {query.isFetchingNextPage && <Spinner label="Cargando más archivos…" />}
      {lightboxWanted && Lightbox && <Lightbox files={files} index={previewIndex} onIndexChange={setPreviewIndex} />}
    </section>
  );
}
