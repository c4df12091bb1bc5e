/**
 * The file input of the upload screen's Uppy Dashboard (the one for files: the Dashboard also has a hidden
 * folder input, marked webkitdirectory).
 */
export const FILE_INPUT =
  '.upload-dashboard input.uppy-Dashboard-input[type=file][name="files[]"]:not([webkitdirectory])';

/** Upload items the Dashboard shows green: bytes stored and the file record written. */
export const FINISHED_ITEM = '.uppy-Dashboard-Item.is-complete';
