import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Pictures with embedded metadata written byte by byte, as cameras and agencies write it: an EXIF block (a
 * TIFF structure with IFD0, the Exif IFD and the GPS IFD), IPTC records inside a Photoshop resource block
 * (APP13), an XMP packet (APP1 in a JPEG, an iTXt chunk in a PNG) and a PNG eXIf chunk. The pixels come from
 * sharp; the metadata blocks are spliced in after the signature, where readers look for them.
 */

export interface ExifFields {
  make?: string;
  model?: string;
  lens?: string;
  orientation?: number;
  /** 'YYYY:MM:DD HH:MM:SS', as EXIF writes it. */
  dateTimeOriginal?: string;
  /** '+02:00' */
  offsetTimeOriginal?: string;
  gps?: { latitude: number; longitude: number };
}

type IfdEntry = { tag: number; type: 'ascii' | 'short' | 'long' | 'rational'; value: string | number | number[] };

const TYPE_CODE = { ascii: 2, short: 3, long: 4, rational: 5 } as const;

/** A big-endian TIFF structure ('MM') holding the given fields: what an EXIF APP1 segment carries after 'Exif\0\0'. */
export function exifTiff(fields: ExifFields): Buffer {
  const ifd0: IfdEntry[] = [];
  const exif: IfdEntry[] = [];
  const gps: IfdEntry[] = [];
  if (fields.make !== undefined) ifd0.push({ tag: 0x010f, type: 'ascii', value: fields.make });
  if (fields.model !== undefined) ifd0.push({ tag: 0x0110, type: 'ascii', value: fields.model });
  if (fields.orientation !== undefined) ifd0.push({ tag: 0x0112, type: 'short', value: fields.orientation });
  if (fields.dateTimeOriginal !== undefined) exif.push({ tag: 0x9003, type: 'ascii', value: fields.dateTimeOriginal });
  if (fields.offsetTimeOriginal !== undefined) {
    exif.push({ tag: 0x9011, type: 'ascii', value: fields.offsetTimeOriginal });
  }
  if (fields.lens !== undefined) exif.push({ tag: 0xa434, type: 'ascii', value: fields.lens });
  if (fields.gps) {
    const dms = (decimal: number) => {
      const abs = Math.abs(decimal);
      const degrees = Math.floor(abs);
      const minutes = Math.floor((abs - degrees) * 60);
      const seconds = Math.round(((abs - degrees) * 60 - minutes) * 60 * 10000);
      return [degrees, 1, minutes, 1, seconds, 10000];
    };
    gps.push({ tag: 0x0000, type: 'short', value: [2, 3, 0, 0] });
    gps.push({ tag: 0x0001, type: 'ascii', value: fields.gps.latitude < 0 ? 'S' : 'N' });
    gps.push({ tag: 0x0002, type: 'rational', value: dms(fields.gps.latitude) });
    gps.push({ tag: 0x0003, type: 'ascii', value: fields.gps.longitude < 0 ? 'W' : 'E' });
    gps.push({ tag: 0x0004, type: 'rational', value: dms(fields.gps.longitude) });
  }
  // IFD0 links to the Exif and GPS IFDs by offset; the offsets are patched once the layout is known.
  if (exif.length) ifd0.push({ tag: 0x8769, type: 'long', value: 0 });
  if (gps.length) ifd0.push({ tag: 0x8825, type: 'long', value: 0 });
  ifd0.sort((a, b) => a.tag - b.tag);
  exif.sort((a, b) => a.tag - b.tag);

  const ifdSize = (entries: IfdEntry[]) => 2 + entries.length * 12 + 4;
  const ifd0Offset = 8;
  const exifOffset = ifd0Offset + ifdSize(ifd0);
  const gpsOffset = exifOffset + (exif.length ? ifdSize(exif) : 0);
  let dataOffset = gpsOffset + (gps.length ? ifdSize(gps) : 0);
  const data: Buffer[] = [];
  for (const entry of ifd0) {
    if (entry.tag === 0x8769) entry.value = exifOffset;
    if (entry.tag === 0x8825) entry.value = gpsOffset;
  }

  const writeIfd = (entries: IfdEntry[]) => {
    const out = Buffer.alloc(ifdSize(entries));
    out.writeUInt16BE(entries.length, 0);
    entries.forEach((entry, index) => {
      const at = 2 + index * 12;
      out.writeUInt16BE(entry.tag, at);
      out.writeUInt16BE(TYPE_CODE[entry.type], at + 2);
      let bytes: Buffer;
      let count: number;
      if (entry.type === 'ascii') {
        bytes = Buffer.concat([Buffer.from(String(entry.value), 'latin1'), Buffer.from([0])]);
        count = bytes.length;
      } else {
        const values = Array.isArray(entry.value) ? entry.value : [entry.value as number];
        const width = entry.type === 'short' ? 2 : 4;
        bytes = Buffer.alloc(values.length * width);
        values.forEach((v, i) => (width === 2 ? bytes.writeUInt16BE(v, i * 2) : bytes.writeUInt32BE(v, i * 4)));
        count = entry.type === 'rational' ? values.length / 2 : values.length;
      }
      out.writeUInt32BE(count, at + 4);
      if (bytes.length <= 4) {
        bytes.copy(out, at + 8);
      } else {
        out.writeUInt32BE(dataOffset, at + 8);
        const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.from([0])]) : bytes;
        data.push(padded);
        dataOffset += padded.length;
      }
    });
    return out;
  };
  const header = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]);
  const blocks = [header, writeIfd(ifd0)];
  if (exif.length) blocks.push(writeIfd(exif));
  if (gps.length) blocks.push(writeIfd(gps));
  return Buffer.concat([...blocks, ...data]);
}

/** A JPEG marker segment: marker, big-endian length (itself included), payload. */
export function jpegSegment(marker: number, payload: Buffer): Buffer {
  if (payload.length + 2 > 0xffff) throw new Error('a JPEG segment holds at most 65533 bytes');
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

export const exifSegment = (fields: ExifFields) =>
  jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(fields)]));

/** One IPTC-IIM dataset: 0x1C, record, dataset, 2-byte length, bytes. */
export function iptcDataset(record: number, dataset: number, value: Buffer): Buffer {
  const head = Buffer.from([0x1c, record, dataset, value.length >> 8, value.length & 0xff]);
  return Buffer.concat([head, value]);
}

/** The Coded Character Set dataset (1:90) saying UTF-8: ESC % G. */
export const IPTC_UTF8 = iptcDataset(1, 90, Buffer.from([0x1b, 0x25, 0x47]));

/** An APP13 segment: 'Photoshop 3.0', one 8BIM resource 0x0404 holding the IPTC datasets. */
export function iptcSegment(datasets: Buffer[]): Buffer {
  const iptc = Buffer.concat(datasets);
  const resource = Buffer.alloc(12);
  resource.write('8BIM', 0, 'latin1');
  resource.writeUInt16BE(0x0404, 4);
  // Empty Pascal name (length byte 0, padded to even), then the data size.
  resource.writeUInt16BE(0, 6);
  resource.writeUInt32BE(iptc.length, 8);
  const padding = iptc.length % 2 ? Buffer.from([0]) : Buffer.alloc(0);
  return jpegSegment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource, iptc, padding]));
}

export interface XmpFields {
  creator?: string;
  credit?: string;
  rights?: string;
  usageTerms?: string;
  headline?: string;
  /** dc:title */
  title?: string;
  description?: string;
  subject?: string[];
  dateCreated?: string;
  /** Text added inside the packet (to make it large). */
  padding?: string;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An XMP packet (UTF-8) with the IPTC Core properties given. */
export function xmpPacket(fields: XmpFields): string {
  const alt = (name: string, text?: string) =>
    text === undefined
      ? ''
      : `<${name}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(text)}</rdf:li></rdf:Alt></${name}>`;
  const simple = (name: string, text?: string) => (text === undefined ? '' : `<${name}>${escapeXml(text)}</${name}>`);
  const creator =
    fields.creator === undefined
      ? ''
      : `<dc:creator><rdf:Seq><rdf:li>${escapeXml(fields.creator)}</rdf:li></rdf:Seq></dc:creator>`;
  const subject = fields.subject
    ? `<dc:subject><rdf:Bag>${fields.subject.map((k) => `<rdf:li>${escapeXml(k)}</rdf:li>`).join('')}</rdf:Bag></dc:subject>`
    : '';
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
    `xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/">` +
    creator +
    simple('photoshop:Credit', fields.credit) +
    alt('dc:rights', fields.rights) +
    alt('xmpRights:UsageTerms', fields.usageTerms) +
    simple('photoshop:Headline', fields.headline) +
    alt('dc:title', fields.title) +
    alt('dc:description', fields.description) +
    subject +
    simple('photoshop:DateCreated', fields.dateCreated) +
    `</rdf:Description></rdf:RDF></x:xmpmeta>` +
    (fields.padding ?? '') +
    `<?xpacket end="w"?>`
  );
}

export const xmpSegment = (packet: string) =>
  jpegSegment(
    0xe1,
    Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(packet, 'utf8')]),
  );

/** `jpeg` with the given segments right after its SOI marker. */
export const withSegments = (jpeg: Buffer, segments: Buffer[]) =>
  Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);

/** A JPEG of `width`×`height` with the given segments right after its SOI marker. */
export async function jpegWith(segments: Buffer[], width = 64, height = 48): Promise<Buffer> {
  const plain = await sharp({ create: { width, height, channels: 3, background: '#0084D8' } })
    .jpeg()
    .toBuffer();
  return withSegments(plain, segments);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: length, type, data, CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

/** An iTXt chunk holding an XMP packet, uncompressed or deflated. */
export const pngXmpChunk = (packet: string, compressed = false) =>
  pngChunk(
    'iTXt',
    Buffer.concat([
      Buffer.from('XML:com.adobe.xmp\0', 'latin1'),
      Buffer.from([compressed ? 1 : 0, 0, 0, 0]),
      compressed ? deflateSync(Buffer.from(packet, 'utf8')) : Buffer.from(packet, 'utf8'),
    ]),
  );

export const pngExifChunk = (fields: ExifFields) => pngChunk('eXIf', exifTiff(fields));

/** A PNG with the given chunks right after IHDR (signature 8 bytes, IHDR 25). */
export async function pngWith(chunks: Buffer[], width = 64, height = 48): Promise<Buffer> {
  const plain = await sharp({ create: { width, height, channels: 3, background: '#0084D8' } })
    .png()
    .toBuffer();
  return Buffer.concat([plain.subarray(0, 33), ...chunks, plain.subarray(33)]);
}

/** An ISO-BMFF box: big-endian size (header included), type, payload. */
export function isoBox(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(payload.length + 8, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

/** A full box: a box whose payload starts with a version byte and 24 bits of flags. */
export const isoFullBox = (type: string, version: number, payload: Buffer) =>
  isoBox(type, Buffer.concat([Buffer.from([version, 0, 0, 0]), payload]));

export interface HeicContents {
  exif?: ExifFields;
  /** An XMP packet, stored as a 'mime' item of type application/rdf+xml. */
  xmp?: string;
}

/**
 * A HEIF file as a phone writes one, reduced to its structure: an ftyp box (major brand 'heic'), a meta box
 * (hdlr 'pict', the primary item in pitm, iinf with one infe version 2 per item, iref linking the metadata to
 * the picture as 'cdsc', iloc giving each item's place in the file) and an mdat box holding the items. The
 * primary 'hvc1' item holds placeholder bytes, not a coded picture: nothing here decodes HEIC pixels. The Exif
 * item is what HEIF stores for EXIF: a 4-byte offset to the TIFF header (6, past 'Exif\0\0'), then the block.
 */
export function heicWith(contents: HeicContents): Buffer {
  const items: Array<{ id: number; infe: Buffer; data: Buffer }> = [];
  const infe = (id: number, type: string, extra = Buffer.alloc(0)) => {
    const head = Buffer.alloc(8);
    head.writeUInt16BE(id, 0);
    head.writeUInt16BE(0, 2);
    head.write(type, 4, 'latin1');
    return isoFullBox('infe', 2, Buffer.concat([head, Buffer.from('\0', 'latin1'), extra]));
  };
  items.push({ id: 1, infe: infe(1, 'hvc1'), data: Buffer.alloc(16, 0x5a) });
  if (contents.exif) {
    const offset = Buffer.alloc(4);
    offset.writeUInt32BE(6, 0);
    const data = Buffer.concat([offset, Buffer.from('Exif\0\0', 'latin1'), exifTiff(contents.exif)]);
    items.push({ id: items.length + 1, infe: infe(items.length + 1, 'Exif'), data });
  }
  if (contents.xmp !== undefined) {
    const id = items.length + 1;
    items.push({
      id,
      infe: infe(id, 'mime', Buffer.from('application/rdf+xml\0', 'latin1')),
      data: Buffer.from(contents.xmp, 'utf8'),
    });
  }

  const ftyp = isoBox('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1'));
  const u16 = (value: number) => {
    const out = Buffer.alloc(2);
    out.writeUInt16BE(value, 0);
    return out;
  };
  // hdlr: pre_defined, handler type, three reserved words, an empty name.
  const hdlr = isoFullBox('hdlr', 0, Buffer.concat([Buffer.alloc(4), Buffer.from('pict', 'latin1'), Buffer.alloc(13)]));
  const pitm = isoFullBox('pitm', 0, u16(1));
  const iinf = isoFullBox('iinf', 0, Buffer.concat([u16(items.length), ...items.map((item) => item.infe)]));
  // Each metadata item describes ('cdsc') the primary picture.
  const references = items.slice(1).map((item) => isoBox('cdsc', Buffer.concat([u16(item.id), u16(1), u16(1)])));
  const iref = isoFullBox('iref', 0, Buffer.concat(references));
  // iloc version 1: 4-byte offsets and lengths, no base offset, construction method 0 (offsets in the file).
  const iloc = (offsets: number[]) =>
    isoFullBox(
      'iloc',
      1,
      Buffer.concat([
        Buffer.from([0x44, 0x00]),
        u16(items.length),
        ...items.map((item, index) => {
          const entry = Buffer.alloc(16);
          entry.writeUInt16BE(item.id, 0);
          entry.writeUInt16BE(0, 2);
          entry.writeUInt16BE(0, 4);
          entry.writeUInt16BE(1, 6);
          entry.writeUInt32BE(offsets[index]!, 8);
          entry.writeUInt32BE(item.data.length, 12);
          return entry;
        }),
      ]),
    );
  const meta = (offsets: number[]) =>
    isoFullBox('meta', 0, Buffer.concat([hdlr, pitm, iinf, ...(references.length ? [iref] : []), iloc(offsets)]));
  // The iloc's size does not depend on the offsets it holds: lay out once with zeros, then for real.
  const mdatStart = ftyp.length + meta(items.map(() => 0)).length + 8;
  const offsets: number[] = [];
  let at = mdatStart;
  for (const item of items) {
    offsets.push(at);
    at += item.data.length;
  }
  return Buffer.concat([ftyp, meta(offsets), isoBox('mdat', Buffer.concat(items.map((item) => item.data)))]);
}
