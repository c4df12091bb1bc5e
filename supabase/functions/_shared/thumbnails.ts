/** The six thumbnail sizes the library serves, rendered by Storage image transformations. */
export const THUMBNAIL_SIZES = [
  [200, 150],
  [300, 225],
  [400, 300],
  [500, 375],
  [1024, 768],
  [2048, 1536],
] as const;

export const sizeLabel = ([width, height]: readonly [number, number]) => `${width}x${height}`;
