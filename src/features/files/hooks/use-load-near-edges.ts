import { useLayoutEffect, useRef } from 'react';

interface Edges {
  /** How many rows the grid has, and the indexes of those rendered now. */
  rowCount: number;
  rendered: ReadonlyArray<{ index: number }>;
  /** How many files are loaded: each new page asks again whether the edge is still near. */
  fileCount: number;
  onNearEnd: () => void;
  onNearStart?: () => void;
}

/** Asks for more files when the rendered rows come within a few rows of either end of what is loaded. */
export function useLoadNearEdges({ rowCount, rendered, fileCount, onNearEnd, onNearStart }: Edges) {
  const lastRendered = rendered[rendered.length - 1]?.index ?? -1;
  const nearEnd = rowCount > 0 && lastRendered >= rowCount - 3;
  const nearStart = rowCount > 0 && (rendered[0]?.index ?? 0) <= 2;
  const onNearEndRef = useRef(onNearEnd);
  const onNearStartRef = useRef(onNearStart);
  useLayoutEffect(() => {
    onNearEndRef.current = onNearEnd;
    onNearStartRef.current = onNearStart;
  });
  useLayoutEffect(() => {
    if (nearEnd) onNearEndRef.current();
  }, [nearEnd, fileCount]);
  useLayoutEffect(() => {
    if (nearStart) onNearStartRef.current?.();
  }, [nearStart, fileCount]);
}
