// The one table of media variants: every picture of a file the product shows or serves, its size, how it
// fills its box, and how long a signed URL to it lasts. The edge functions and the app (src/) both import this
// file, so it stays plain TypeScript with no imports and no Deno APIs: a function deploys with only what is
// under supabase/functions, and the app's bundler reads it like any of its own modules.

/** How a picture fills its box: `cover` crops to fill it, `contain` shows all of it inside. */
export type MediaFit = 'cover' | 'contain';

export interface MediaSize {
  width: number;
  height: number;
  fit: MediaFit;
}

/**
 * The six thumbnail sizes every image gets. Post-processing renders each of them (cropped to fill, so the
 * first visitor does not wait), the public feed lists them, and public-media serves no other size.
 */
export const THUMBNAIL_SIZES = [
  [200, 150],
  [300, 225],
  [400, 300],
  [500, 375],
  [1024, 768],
  [2048, 1536],
] as const satisfies ReadonlyArray<readonly [number, number]>;

/** How the six thumbnails are rendered ahead, and how public-media serves a size unless asked otherwise. */
export const THUMBNAIL_FIT: MediaFit = 'cover';

/** Where each picture is shown, at which size. */
export const MEDIA_VARIANTS = {
  /** A card of the files grid: a photo whole within a 4:3 box. */
  thumbnail: { width: 400, height: 300, fit: 'contain' },
  /** A document's first page in a card: portrait, as pages are, so it stays sharp at the card's height. */
  page: { width: 400, height: 400, fit: 'contain' },
  /** The file detail's preview, and the public file page's. */
  preview: { width: 1024, height: 768, fit: 'contain' },
  /** The lightbox, and the public file page's 'see larger'. */
  large: { width: 2048, height: 1536, fit: 'contain' },
  /** A file card in a collection. */
  collectionCard: { width: 300, height: 225, fit: 'cover' },
  /** A photo's row in the Papelera. */
  trashPhoto: { width: 160, height: 120, fit: 'cover' },
  /** A document's page in the Papelera, whole. */
  trashPage: { width: 160, height: 120, fit: 'contain' },
  /** A file card on a public collection page. */
  publicCard: { width: 400, height: 300, fit: 'cover' },
} as const satisfies Record<string, MediaSize>;

export type MediaVariantName = keyof typeof MEDIA_VARIANTS;

/** How long a signed URL to a media object lasts, by who asks for it. */
export const SIGNED_URL_SECONDS = {
  /** The app's pictures and downloads, cached until a minute before they expire. */
  app: 3600,
  /** public-media's redirects: the browser that followed a public link fetches it at once. */
  publicRedirect: 300,
  /** The originals of one page of a ZIP's entries: asked for as the browser's archive reaches that page. */
  zipEntry: 3600,
  /** A shared link's render or original: the page asks for it as it shows or downloads it. */
  shareLink: 120,
} as const;

/** '400x300': how sizes are named in public-media's `size` parameter and in the public feed. */
export const sizeLabel = ([width, height]: readonly [number, number]) => `${width}x${height}`;

/** public-media's query for a variant, e.g. `?size=1024x768&fit=contain` (the fit only when not its default). */
export const publicMediaQuery = ({ width, height, fit }: MediaSize) =>
  `?size=${sizeLabel([width, height])}${fit === THUMBNAIL_FIT ? '' : `&fit=${fit}`}`;
