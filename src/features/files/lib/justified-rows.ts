import justifiedLayout from 'justified-layout';

/** What the layout needs of a file: its pixel size when known (images, once processed). */
export interface LayoutFile {
  id: string;
  width: number | null;
  height: number | null;
  is_image: boolean | null;
}

export interface GridBox {
  /** Index of the file in the loaded list. */
  index: number;
  left: number;
  width: number;
  /** Height of the picture; the caption below it adds CAPTION_HEIGHT. */
  height: number;
}

export interface GridRow {
  /** Height of the whole row: picture plus caption (or the heading's height). */
  height: number;
  boxes: GridBox[];
  /** A heading row (the month of a date-sorted grid) has this text and no boxes. */
  heading?: string;
}

/** Height of a month heading row. */
export const HEADING_HEIGHT = 44;

export const CAPTION_HEIGHT = 48;
export const BOX_SPACING = 12;
/** Panoramas and very tall images would make one-card rows or slivers: keep every card reasonable. */
const MIN_ASPECT = 0.75;
const MAX_ASPECT = 2;
const DOCUMENT_ASPECT = 0.9;
const UNKNOWN_IMAGE_ASPECT = 4 / 3;

export function aspectRatioOf(file: LayoutFile): number {
  if (!file.is_image) return DOCUMENT_ASPECT;
  if (!file.width || !file.height) return UNKNOWN_IMAGE_ASPECT;
  return Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, file.width / file.height));
}

export const targetRowHeightFor = (containerWidth: number) => (containerWidth < 600 ? 130 : 200);

/**
 * Rows of a justified grid (Flickr's justified-layout, as Immich uses): each row is as wide as the container,
 * pictures keep their aspect ratio and share the row's height. Rows are what the virtualizer renders, each
 * with its exact height, so cards never overlap whatever their content.
 */
export function justifiedRows(files: readonly LayoutFile[], containerWidth: number, first = 0): GridRow[] {
  if (files.length === 0 || containerWidth <= 0) return [];
  const layout = justifiedLayout(files.map(aspectRatioOf), {
    containerWidth,
    containerPadding: 0,
    boxSpacing: { horizontal: BOX_SPACING, vertical: 0 },
    targetRowHeight: targetRowHeightFor(containerWidth),
    targetRowHeightTolerance: 0.25,
  });
  const rows: GridRow[] = [];
  let currentTop: number | null = null;
  layout.boxes.forEach((box, index) => {
    if (currentTop === null || Math.abs(box.top - currentTop) > 0.5) {
      rows.push({ height: 0, boxes: [] });
      currentTop = box.top;
    }
    const row = rows[rows.length - 1]!;
    const height = Math.floor(box.height);
    row.boxes.push({ index: first + index, left: Math.floor(box.left), width: Math.floor(box.width), height });
    row.height = Math.max(row.height, height + CAPTION_HEIGHT);
  });
  return rows;
}

/**
 * The rows of a grid grouped under headings (the months of a date-sorted grid, as in a photo timeline): each
 * run of consecutive files with the same heading starts a heading row and is laid out on its own, so a month
 * never shares a row with the next. `headingOf` is called once per file.
 */
export function groupedRows<File extends LayoutFile>(
  files: readonly File[],
  containerWidth: number,
  headingOf: (file: File) => string,
): GridRow[] {
  if (files.length === 0 || containerWidth <= 0) return [];
  const rows: GridRow[] = [];
  let start = 0;
  let heading = headingOf(files[0]!);
  for (let index = 1; index <= files.length; index++) {
    const next = index < files.length ? headingOf(files[index]!) : null;
    if (next === heading) continue;
    rows.push({ height: HEADING_HEIGHT, boxes: [], heading });
    rows.push(...justifiedRows(files.slice(start, index), containerWidth, start));
    start = index;
    heading = next ?? '';
  }
  return rows;
}
