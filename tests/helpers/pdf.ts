/**
 * Small, valid PDFs written byte by byte for tests (no PDF library): pages of a chosen size with coloured
 * bands and Helvetica text, a correct cross-reference table, and optionally an /Encrypt dictionary whose
 * user password is not empty (so a reader that does not know it cannot open the document).
 */

export interface PdfPage {
  /** In points (1/72 inch). A4 is 595 × 842. */
  width: number;
  height: number;
  /** Drawn large near the top of the page. */
  title: string;
  /** The band across the top, as r g b between 0 and 1. */
  band?: readonly [number, number, number];
}

export interface PdfOptions {
  pages: PdfPage[];
  /** Adds a Standard security handler that needs a password nobody passes. */
  encrypted?: boolean;
  /** Bytes of an unused stream object, to make a big document of a small page. */
  padding?: number;
}

/** Text for a PDF string literal: only printable ASCII, with the three special characters escaped. */
function pdfText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
}

function pageContent(page: PdfPage): string {
  const [r, g, b] = page.band ?? [0, 0.52, 0.85];
  const bandHeight = Math.round(page.height * 0.18);
  const lines = [
    // The band across the top.
    `${r} ${g} ${b} rg 0 ${page.height - bandHeight} ${page.width} ${bandHeight} re f`,
    // A dark block in the middle and lines of "text" under it, so the page is far from blank.
    `0.15 0.15 0.15 rg ${page.width * 0.1} ${page.height * 0.35} ${page.width * 0.8} ${page.height * 0.25} re f`,
    ...Array.from({ length: 6 }, (_, line) => {
      const y = page.height * 0.3 - line * page.height * 0.03;
      return `0.5 0.5 0.5 rg ${page.width * 0.1} ${y} ${page.width * (0.8 - line * 0.07)} ${page.height * 0.012} re f`;
    }),
    `BT /F1 ${Math.max(8, Math.round(page.width / 14))} Tf 0 0 0 rg ${page.width * 0.1} ${page.height * 0.7} Td (${pdfText(page.title)}) Tj ET`,
  ];
  return lines.join('\n');
}

/** A PDF as bytes. */
export function makePdf(options: PdfOptions): Buffer {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pages = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids = options.pages.map((page) => {
    const content = pageContent(page);
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    return add(
      `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 ${page.width} ${page.height}] ` +
        `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`,
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pages} 0 R >>`;
  objects[pages - 1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const encrypt = options.encrypted
    ? add(
        // RC4 40-bit (revision 2). O and U are not derived from any password, so no password, the empty one
        // included, opens the document.
        `<< /Filter /Standard /V 1 /R 2 /P -44 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> >>`,
      )
    : null;

  if (options.padding) add(`<< /Length ${options.padding} >>\nstream\n${'0'.repeat(options.padding)}\nendstream`);

  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const id = '0123456789abcdef0123456789abcdef';
  pdf +=
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R` +
    (encrypt ? ` /Encrypt ${encrypt} 0 R /ID [<${id}> <${id}>]` : '') +
    ` >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** One A4 page titled `title`. */
export const a4Pdf = (title: string, band?: readonly [number, number, number]) =>
  makePdf({ pages: [{ width: 595, height: 842, title, band }] });
