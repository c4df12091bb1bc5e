import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fileListQuery, type FileFilters } from '../api/search-files.ts';
import { fileCountQuery } from '../api/count-files.ts';
import { fileMonthsQuery } from '../api/get-file-months.ts';
import { sortDateColumn, type FileSort } from '../api/file-filters.ts';
import type { MonthKey } from '../lib/timeline.ts';

interface ListOf {
  filters: FileFilters;
  sort: FileSort;
  /** Date sorts: the month the loaded list starts at (null: the top). */
  from: MonthKey | null;
  setFrom: (month: MonthKey | null) => void;
}

/**
 * The files screen's list: its pages (loaded forwards, and backwards when it starts at a month), the filtered
 * count and the timeline's months, with the callbacks that load more of them.
 */
export function useFileList({ filters, sort, from, setFrom }: ListOf) {
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
  const retry = () => void Promise.all([query.refetch(), count.refetch()]);

  return { query, count, months, dateColumn, files, fileIds, loadMore, loadEarlier, loadMonth, retry };
}
