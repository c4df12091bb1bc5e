// What an image says about itself (EXIF, IPTC, XMP), read from the head of the file at post-processing and
// made safe to store: nothing from the file is trusted. ExifReader finds the blocks (JPEG APP1/APP13 segments
// up to the image data, PNG eXIf/iTXt chunks, HEIC items) and decodes EXIF and XMP; IPTC texts are decoded
// here from their raw bytes, because old agency files carry Latin-1 without saying so and the character-set
// record (1:90) is what decides. Every text is trimmed, stripped of control characters where it is one line,
// and cut to its column's length; dates outside 1900-01-01 … tomorrow are dropped. A block that cannot be
// read is no failure of the processing: the reason is kept in `readError` and the file goes on.
import ExifReader from 'exifreader';
import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';

export interface EmbeddedMetadata {
  /** ISO 8601 instant, or null. */
  capturedAt: string | null;
  cameraMake: string | null;
  cameraModel: string | null;
  lens: string | null;
  orientation: number | null;
  gpsLatitude: number | null;
  gpsLongitude: number | null;
  creator: string | null;
  credit: string | null;
  copyright: string | null;
  usageTerms: string | null;
  headline: string | null;
  /** What the file calls itself: its headline, else its XMP dc:title, else its IPTC object name. */
  title: string | null;
  caption: string | null;
  keywords: string[];
  readError: string | null;
}

/** The columns' limits in public.file_metadata (characters, as char_length counts them). */
const LIMITS = {
  camera: 200,
  creator: 300,
  credit: 300,
  copyright: 500,
  usageTerms: 2000,
  headline: 500,
  caption: 10000,
  keyword: 200,
  keywords: 200,
  readError: 500,
} as const;

/** Where capture times without an offset were most likely taken: the group's hotels keep Madrid's clock. */
const LOCAL_TIME_ZONE = 'Europe/Madrid';

export const EMPTY_METADATA: EmbeddedMetadata = {
  capturedAt: null,
  cameraMake: null,
  cameraModel: null,
  lens: null,
  orientation: null,
  gpsLatitude: null,
  gpsLongitude: null,
  creator: null,
  credit: null,
  copyright: null,
  usageTerms: null,
  headline: null,
  title: null,
  caption: null,
  keywords: [],
  readError: null,
};

// Control characters (C0, DEL, C1), unpaired surrogates (Postgres refuses them) and the byte-order mark.
// deno-lint-ignore no-control-regex
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// deno-lint-ignore no-control-regex
const CONTROL_BUT_LINES =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Cuts to `limit` characters (code points) without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  const characters = Array.from(text);
  return characters.length <= limit ? text : characters.slice(0, limit).join('').trimEnd();
}

/** A one-line text: control characters become spaces, runs of spaces one, trimmed and cut; null when empty. */
export function singleLine(value: unknown, limit: number): string | null {
  if (typeof value !== 'string') return null;
  const text = cut(value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim(), limit);
  return text || null;
}

/** A text of several lines (caption, usage terms): line breaks and tabs kept, other controls removed. */
export function multiLine(value: unknown, limit: number): string | null {
  if (typeof value !== 'string') return null;
  const text = cut(value.replace(/\r\n?/g, '\n').replace(CONTROL_BUT_LINES, '').trim(), limit);
  return text || null;
}

/** The offset of `zone` at the instant `utcMs`, in minutes east of UTC. */
function zoneOffsetMinutes(zone: string, utcMs: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(utcMs))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/**
 * An instant from calendar parts and an offset ('+02:00', 'Z', or none: Madrid's wall clock); null when the
 * parts are no real date or the instant lies outside 1900-01-01 … the end of tomorrow (UTC).
 */
export function instantOf(parts: number[], offset: string | undefined, now: Date): string | null {
  const [year, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
  if (year === undefined || parts.some((part) => !Number.isInteger(part))) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return null;
  }
  let offsetMinutes: number;
  const stated = offset ? /^([+-])(\d{2}):?(\d{2})$/.exec(offset.trim()) : null;
  if (offset?.trim() === 'Z') offsetMinutes = 0;
  else if (stated) offsetMinutes = (stated[1] === '-' ? -1 : 1) * (Number(stated[2]) * 60 + Number(stated[3]));
  else offsetMinutes = zoneOffsetMinutes(LOCAL_TIME_ZONE, wall - zoneOffsetMinutes(LOCAL_TIME_ZONE, wall) * 60_000);
  if (Math.abs(offsetMinutes) > 14 * 60) return null;
  const instant = wall - offsetMinutes * 60_000;
  const earliest = Date.UTC(1900, 0, 1);
  const latest = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2);
  if (instant < earliest || instant >= latest) return null;
  return new Date(instant).toISOString();
}

/** EXIF's 'YYYY:MM:DD HH:MM:SS' with OffsetTimeOriginal. */
function exifDate(text: unknown, offset: unknown, now: Date): string | null {
  if (typeof text !== 'string') return null;
  const match = /^\s*(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!match) return null;
  return instantOf(match.slice(1).map(Number), typeof offset === 'string' ? offset : undefined, now);
}

/** XMP's ISO 8601 (photoshop:DateCreated): a year, a month, a day, or a time with or without its offset. */
function xmpDate(text: unknown, now: Date): string | null {
  if (typeof text !== 'string') return null;
  const match =
    /^\s*(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?\s*$/.exec(
      text,
    );
  if (!match) return null;
  const parts = match
    .slice(1, 7)
    .filter((part) => part !== undefined)
    .map(Number);
  return instantOf(parts, match[7], now);
}

type Tag = { value?: unknown; description?: unknown; attributes?: Record<string, string> };
type Group = Record<string, Tag | Tag[] | undefined>;

/** An IPTC dataset's raw bytes decoded: UTF-8 when the character-set record says ESC % G, else Latin-1. */
function iptcText(tag: Tag | undefined, utf8: boolean): string | undefined {
  const bytes = tag?.value;
  if (!Array.isArray(bytes) || bytes.some((byte) => typeof byte !== 'number')) return undefined;
  // The WHATWG 'latin1' decoder is windows-1252, which agrees with ISO-8859-1 on every printable character.
  return new TextDecoder(utf8 ? 'utf-8' : 'latin1').decode(Uint8Array.from(bytes as number[]));
}

function iptcSaysUtf8(iptc: Group): boolean {
  const charset = iptc['Coded Character Set'];
  const bytes = !Array.isArray(charset) && Array.isArray(charset?.value) ? (charset.value as number[]) : [];
  return bytes.length >= 3 && bytes[0] === 0x1b && bytes[1] === 0x25 && bytes[2] === 0x47;
}

/** An XMP property's text: a simple value, the x-default (else first) of a language alternative, a list's items joined. */
function xmpText(tag: Tag | Tag[] | undefined): string | undefined {
  if (!tag || Array.isArray(tag)) return undefined;
  if (typeof tag.value === 'string') return tag.value;
  if (Array.isArray(tag.value)) {
    const items = tag.value as Tag[];
    const chosen = items.find((item) => item.attributes?.lang === 'x-default') ?? items[0];
    const isAlternative = items.some((item) => item.attributes?.lang);
    if (isAlternative) return typeof chosen?.value === 'string' ? chosen.value : undefined;
    return items
      .map((item) => item.value)
      .filter((value): value is string => typeof value === 'string')
      .join(', ');
  }
  return undefined;
}

function xmpList(tag: Tag | Tag[] | undefined): string[] {
  if (!tag || Array.isArray(tag)) return [];
  if (typeof tag.value === 'string') return [tag.value];
  if (!Array.isArray(tag.value)) return [];
  return (tag.value as Tag[]).map((item) => item.value).filter((value): value is string => typeof value === 'string');
}

/** An EXIF ASCII field: only a real string (a damaged IFD yields other values, which are not text). */
function exifText(tag: Tag | Tag[] | undefined): string | undefined {
  if (!tag || Array.isArray(tag) || !Array.isArray(tag.value)) return undefined;
  return typeof tag.value[0] === 'string' ? tag.value[0] : undefined;
}

/** ExifReader skips a damaged EXIF block without a word: the block was there (its group) but gave no field. */
function exifUnreadable(exif: Group | undefined): boolean {
  return exif !== undefined && Object.keys(exif).every((name) => name.endsWith('Pointer'));
}

function keywordsOf(candidates: string[]): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const candidate of candidates) {
    const keyword = singleLine(candidate, LIMITS.keyword);
    if (!keyword || seen.has(keyword)) continue;
    seen.add(keyword);
    keywords.push(keyword);
    if (keywords.length === LIMITS.keywords) break;
  }
  return keywords;
}

/** The first candidate with some text in it: an empty XMP property does not hide the IPTC dataset. */
const firstText = (...candidates: Array<string | undefined>) => candidates.find((text) => text?.trim());

const coordinate = (value: unknown, bound: number) =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= bound ? value : null;

/** Reads the embedded metadata in `head` (the first bytes of an image). Never throws. */
export function readEmbeddedMetadata(head: Uint8Array, now = new Date()): EmbeddedMetadata {
  let tags: Record<string, Group>;
  try {
    // The head is usually a buffer of its own: no copy then.
    const whole = head.byteOffset === 0 && head.byteLength === head.buffer.byteLength;
    const bytes = (
      whole ? head.buffer : head.buffer.slice(head.byteOffset, head.byteOffset + head.byteLength)
    ) as ArrayBuffer;
    tags = ExifReader.load(bytes, {
      expanded: true,
      includeUnknown: false,
      domParser: new DOMParser({ onError: onErrorStopParsing }),
    }) as unknown as Record<string, Group>;
  } catch (error) {
    // A file with no metadata at all is nothing wrong.
    if ((error as Error).name === 'MetadataMissingError') return { ...EMPTY_METADATA };
    return {
      ...EMPTY_METADATA,
      readError: singleLine(`${(error as Error).name}: ${(error as Error).message}`, LIMITS.readError),
    };
  }
  const exif: Group = tags.exif ?? {};
  const iptc: Group = tags.iptc ?? {};
  const xmp: Group = tags.xmp ?? {};
  const gps = (tags.gps ?? {}) as Record<string, unknown>;
  const utf8 = iptcSaysUtf8(iptc);
  const iptcOne = (name: string) => {
    const tag = iptc[name];
    return iptcText(Array.isArray(tag) ? tag[0] : tag, utf8);
  };
  const iptcKeywords = (() => {
    const tag = iptc['Keywords'];
    return (Array.isArray(tag) ? tag : tag ? [tag] : [])
      .map((item) => iptcText(item, utf8))
      .filter((text): text is string => text !== undefined);
  })();

  const headline = singleLine(firstText(xmpText(xmp['Headline']), iptcOne('Headline')), LIMITS.headline);
  const orientationTag = exif['Orientation'];
  const orientationValue = !Array.isArray(orientationTag) ? orientationTag?.value : undefined;
  let latitude = coordinate(gps['Latitude'], 90);
  let longitude = coordinate(gps['Longitude'], 180);
  if (latitude === null || longitude === null) latitude = longitude = null;
  const lensMake = exifText(exif['LensMake']);
  const lensModel = firstText(exifText(exif['LensModel']), xmpText(xmp['LensModel']), xmpText(xmp['Lens']));

  return {
    capturedAt:
      exifDate(exifText(exif['DateTimeOriginal']), exifText(exif['OffsetTimeOriginal']), now) ??
      xmpDate(xmpText(xmp['DateCreated']), now),
    cameraMake: singleLine(exifText(exif['Make']), LIMITS.camera),
    cameraModel: singleLine(exifText(exif['Model']), LIMITS.camera),
    lens: singleLine(
      lensModel && lensMake && !lensModel.startsWith(lensMake) ? `${lensMake} ${lensModel}` : lensModel,
      LIMITS.camera,
    ),
    orientation:
      typeof orientationValue === 'number' &&
      Number.isInteger(orientationValue) &&
      orientationValue >= 1 &&
      orientationValue <= 8
        ? orientationValue
        : null,
    gpsLatitude: latitude,
    gpsLongitude: longitude,
    // XMP first (Unicode by definition); the IPTC datasets when the file has no XMP for that field.
    creator: singleLine(firstText(xmpText(xmp['creator']), iptcOne('By-line')), LIMITS.creator),
    credit: singleLine(firstText(xmpText(xmp['Credit']), iptcOne('Credit')), LIMITS.credit),
    copyright: singleLine(firstText(xmpText(xmp['rights']), iptcOne('Copyright Notice')), LIMITS.copyright),
    usageTerms: multiLine(xmpText(xmp['UsageTerms']), LIMITS.usageTerms),
    headline,
    title: headline ?? singleLine(firstText(xmpText(xmp['title']), iptcOne('Object Name')), LIMITS.headline),
    caption: multiLine(firstText(xmpText(xmp['description']), iptcOne('Caption/Abstract')), LIMITS.caption),
    keywords: keywordsOf([...xmpList(xmp['subject']), ...iptcKeywords]),
    readError: exifUnreadable(tags.exif) ? 'EXIF: the block is damaged and gave no field' : null,
  };
}
