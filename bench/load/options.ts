/**
 * `npm run bench -- load [--minutes N] [--faults]`: how long the 50 people work (10 minutes unless told; 1–2
 * are enough to try a change) and whether Postgres is restarted and the functions runtime killed meanwhile.
 */
export interface LoadOptions {
  minutes: number;
  faults: boolean;
}

export function loadOptions(argv = process.argv): LoadOptions {
  const flag = argv.indexOf('--minutes');
  const minutes = flag >= 0 ? Number(argv[flag + 1]) : 10;
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 600)
    throw new Error(`--minutes needs a number of minutes above 0, not "${argv[flag + 1]}"`);
  return { minutes, faults: argv.includes('--faults') };
}

/** The people of the run, as the issue counts them. */
export const UPLOADERS = 40;
export const ADMINS = 10;
export const SUBSCRIBERS = 20;

/** Sizes of the uploaded files: 5–50 MB, as photos' originals, short videos and print PDFs are. */
export const UPLOAD_MIN_BYTES = 5_000_000;
export const UPLOAD_MAX_BYTES = 50_000_000;

/** Files in the library before anyone starts, so that searching and scrolling read real pages. */
export const LIBRARY_FILES = 20_000;
