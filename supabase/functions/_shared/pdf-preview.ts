// The first page of a PDF as a JPEG picture, for the grid, the detail page and the Papelera.
// PDFium (Chrome's PDF engine) compiled to WebAssembly (@hyzyla/pdfium, MIT; PDFium itself BSD/Apache) and a
// pure-JS JPEG encoder (jpeg-js, BSD-3-Clause): no native addon, so it runs in Deno and on hosted Supabase's
// edge runtime alike. The WebAssembly binary is taken from the package's base64 module rather than read from
// its .wasm file: a module is always part of a deployed function's bundle, a loose file is not.
//
// Bounded: only documents up to PREVIEW_MAX_SOURCE_BYTES are opened (the whole document sits in memory twice,
// once here and once in PDFium's heap), only the first page is rendered, at most PREVIEW_LONGEST_SIDE pixels
// on its longest side. A document PDFium cannot open (corrupt, encrypted, not a PDF) gives no preview and
// never an error: the caller keeps the extension tile.
import { Buffer } from 'node:buffer';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import jpeg from 'jpeg-js';
import { MEDIA_VARIANTS } from './media-variants.ts';

/** Larger documents get no preview (the extension tile stays). */
export const PREVIEW_MAX_SOURCE_BYTES = 40 * 1024 * 1024; // 40 MiB
/** The rendered page fits in this many pixels both ways: the lightbox's box shows it unscaled. */
export const PREVIEW_LONGEST_SIDE = Math.min(MEDIA_VARIANTS.large.width, MEDIA_VARIANTS.large.height);
const JPEG_QUALITY = 82;
/** After a document this big the library is dropped, so the isolate does not keep its grown heap. */
const KEEP_LIBRARY_BELOW_BYTES = 8 * 1024 * 1024;

export interface PagePreview {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

export type PreviewResult = { preview: PagePreview } | { preview: null; reason: string };

let compiled: Promise<WebAssembly.Module> | undefined;
let library: Promise<PDFiumLibrary> | undefined;

async function compilePdfium(): Promise<WebAssembly.Module> {
  const { PDFIUM_WASM_BASE64 } = (await import('@hyzyla/pdfium/wasm-base64')) as { PDFIUM_WASM_BASE64: string };
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  const binary = fromBase64
    ? fromBase64(PDFIUM_WASM_BASE64)
    : Uint8Array.from(Buffer.from(PDFIUM_WASM_BASE64, 'base64'));
  return WebAssembly.compile(binary);
}

/** One PDFium per isolate, instantiated from the module compiled once. */
function pdfium(): Promise<PDFiumLibrary> {
  library ??= (async () => {
    compiled ??= compilePdfium();
    const module = await compiled;
    return PDFiumLibrary.init({
      // Emscripten's hook: it is handed the instance and the module (the package's types name only one).
      instantiateWasm: (imports, receive) => {
        void WebAssembly.instantiate(module, imports).then((instance) =>
          (receive as unknown as (instance: WebAssembly.Instance, module: WebAssembly.Module) => void)(
            instance,
            module,
          ),
        );
        return {};
      },
    });
  })();
  library.catch(() => (library = undefined));
  return library;
}

/**
 * The next document gets a fresh PDFium; this one is left to the garbage collector with its heap once nobody
 * holds it (a render still running elsewhere in this isolate keeps it until it ends, so it is not destroyed).
 */
function dropLibrary() {
  library = undefined;
}

/** The first page of `pdf`, or why there is none. Never throws. */
export async function renderFirstPage(pdf: Uint8Array): Promise<PreviewResult> {
  if (pdf.byteLength > PREVIEW_MAX_SOURCE_BYTES) {
    return { preview: null, reason: `larger than ${PREVIEW_MAX_SOURCE_BYTES} bytes` };
  }
  let broken = false;
  try {
    const instance = await pdfium();
    let document;
    try {
      document = await instance.loadDocument(pdf);
    } catch (error) {
      // Corrupt, encrypted or not a PDF at all: PDFium said so, and is still fine to use.
      return { preview: null, reason: error instanceof Error ? error.message : String(error) };
    }
    try {
      if (document.getPageCount() < 1) return { preview: null, reason: 'the document has no pages' };
      const page = document.getPage(0);
      const { originalWidth, originalHeight } = page.getOriginalSize();
      if (!(originalWidth > 0 && originalHeight > 0)) return { preview: null, reason: 'the first page has no size' };
      const scale = PREVIEW_LONGEST_SIDE / Math.max(originalWidth, originalHeight);
      // 'bitmap' hands back the raw pixels, RGBA (PDFium's reverse byte order), over a white page.
      const rendered = await page.render({ scale, render: 'bitmap', renderFormFields: false });
      if (rendered.width < 1 || rendered.height < 1) return { preview: null, reason: 'the first page is too thin' };
      const encoded = jpeg.encode(
        { data: rendered.data, width: rendered.width, height: rendered.height },
        JPEG_QUALITY,
      );
      return { preview: { jpeg: new Uint8Array(encoded.data), width: rendered.width, height: rendered.height } };
    } finally {
      document.destroy();
    }
  } catch (error) {
    // Anything else (out of memory, an abort inside PDFium): its heap may be unusable now.
    broken = true;
    return { preview: null, reason: `rendering failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    if (broken || pdf.byteLength >= KEEP_LIBRARY_BELOW_BYTES) dropLibrary();
  }
}
