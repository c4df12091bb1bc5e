import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { PROJECT_ROOT } from '@mediateca/stack';

/**
 * Draws the demo library's pictures once (they are committed under supabase/seed-media, which
 * config.toml's [storage.buckets.media] objects_path uploads on the first start). Run again only to change
 * them: `node --import tsx scripts/make-demo-media.ts`.
 */
const out = path.join(PROJECT_ROOT, 'supabase', 'seed-media');

const pictures: Array<{ object: string; width: number; height: number; format: 'jpeg' | 'png'; svg: string }> = [
  {
    object: 'f0000000-0000-4000-8000-000000000001/u0001.jpg',
    width: 1600,
    height: 1067,
    format: 'jpeg',
    svg: `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b2a6b"/><stop offset="0.55" stop-color="#f28c52"/><stop offset="1" stop-color="#ffd27f"/></linearGradient>
      <linearGradient id="pool" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2bb5d8"/><stop offset="1" stop-color="#0a5f8f"/></linearGradient></defs>
      <rect width="1600" height="1067" fill="url(#sky)"/><circle cx="1120" cy="560" r="120" fill="#ffe3a3"/>
      <rect y="600" width="1600" height="120" fill="#5a3f5e"/><rect y="700" width="1600" height="367" fill="url(#pool)"/>
      ${Array.from({ length: 9 }, (_, i) => `<rect x="${80 + i * 170}" y="${760 + (i % 3) * 90}" width="120" height="8" rx="4" fill="#ffffff" opacity="0.45"/>`).join('')}
      <rect x="120" y="640" width="220" height="40" rx="10" fill="#f4e4c9"/><rect x="420" y="640" width="220" height="40" rx="10" fill="#f4e4c9"/>
      <path d="M1380 700 C1370 560 1400 430 1430 330" stroke="#2d1f33" stroke-width="22" fill="none"/>
      <path d="M1430 330 q-120 -10 -200 60 M1430 330 q110 -40 190 20 M1430 330 q-60 -90 -160 -100 M1430 330 q50 -100 150 -110" stroke="#2d1f33" stroke-width="18" fill="none"/>`,
  },
  {
    object: 'f0000000-0000-4000-8000-000000000002/u0002.jpg',
    width: 1067,
    height: 1600,
    format: 'jpeg',
    svg: `<rect width="1067" height="1600" fill="#efe6da"/><rect x="160" y="160" width="747" height="640" rx="12" fill="#dbe9f4"/>
      <rect x="160" y="160" width="747" height="360" fill="#8fd0f2"/><rect x="160" y="480" width="747" height="320" fill="#1f78b4"/>
      <circle cx="760" cy="300" r="60" fill="#fff6d6"/><rect x="520" y="160" width="24" height="640" fill="#c7b9a5"/>
      <rect x="100" y="1000" width="867" height="360" rx="24" fill="#ffffff"/><rect x="100" y="940" width="867" height="110" rx="24" fill="#b9a58c"/>
      <rect x="160" y="1060" width="300" height="110" rx="30" fill="#f5f1ea"/><rect x="607" y="1060" width="300" height="110" rx="30" fill="#f5f1ea"/>
      <rect x="100" y="1360" width="867" height="60" fill="#8b7760"/>`,
  },
  {
    object: 'f0000000-0000-4000-8000-000000000003/u0003.png',
    width: 1200,
    height: 1200,
    format: 'png',
    svg: `<rect width="1200" height="1200" fill="#2b2320"/><circle cx="600" cy="600" r="420" fill="#f7f3ee"/><circle cx="600" cy="600" r="330" fill="#ffffff"/>
      <circle cx="520" cy="560" r="90" fill="#c0392b"/><circle cx="680" cy="540" r="70" fill="#e1a23b"/><circle cx="620" cy="690" r="80" fill="#5f8f3e"/>
      <path d="M420 760 q180 80 360 0" stroke="#7a4b2a" stroke-width="14" fill="none"/>
      <rect x="110" y="300" width="26" height="600" rx="13" fill="#c9c2b8"/><rect x="1064" y="300" width="26" height="600" rx="13" fill="#c9c2b8"/>`,
  },
  {
    object: 'f0000000-0000-4000-8000-000000000005/u0005.jpg',
    width: 1600,
    height: 900,
    format: 'jpeg',
    svg: `<defs><linearGradient id="water" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7fd6cf"/><stop offset="1" stop-color="#13707a"/></linearGradient></defs>
      <rect width="1600" height="900" fill="#e8e2d6"/><rect x="0" y="380" width="1600" height="520" fill="url(#water)"/>
      ${Array.from({ length: 7 }, (_, i) => `<ellipse cx="${180 + i * 210}" cy="${360 - (i % 2) * 20}" rx="90" ry="34" fill="#8d8478"/>`).join('')}
      ${Array.from({ length: 12 }, (_, i) => `<path d="M${60 + i * 130} ${520 + (i % 4) * 80} q40 -16 80 0" stroke="#e9fbf8" stroke-width="6" fill="none" opacity="0.7"/>`).join('')}
      <rect x="1240" y="120" width="260" height="200" rx="16" fill="#f7f1e6"/><circle cx="1370" cy="220" r="46" fill="#d9c9a7"/>`,
  },
];

/** A one-page PDF with the rate sheet's title: small, valid, and opens in any viewer. */
function ratesPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const text =
    'BT /F1 28 Tf 72 760 Td (Tarifas de invierno 2027) Tj 0 -40 Td /F1 14 Tf (Documento de tarifas para agencias - Mediateca demo) Tj ET';
  objects[3] = `<< /Length ${text.length} >>\nstream\n${text}\nendstream`;
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

for (const picture of pictures) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${picture.width}" height="${picture.height}">${picture.svg}</svg>`;
  const image = sharp(Buffer.from(svg));
  const bytes =
    picture.format === 'jpeg'
      ? await image.jpeg({ quality: 80, mozjpeg: true }).toBuffer()
      : await image.png({ compressionLevel: 9, palette: true }).toBuffer();
  const target = path.join(out, picture.object);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, bytes);
  console.log(`${picture.object}: ${bytes.length} bytes`);
}
const pdf = path.join(out, 'f0000000-0000-4000-8000-000000000004/u0004.pdf');
await mkdir(path.dirname(pdf), { recursive: true });
await writeFile(pdf, ratesPdf());
console.log(`${path.relative(out, pdf)} written`);
