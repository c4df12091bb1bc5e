import { describe, expect, it } from 'vitest';
import { buildZip, crc32, uniqueNames } from './store-zip.ts';

/** Reads back the entries of a stored ZIP through its central directory, checking each CRC. */
function entriesOf(archive: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let end = archive.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(offset, true)).toBe(0x02014b50);
    expect(view.getUint16(offset + 10, true)).toBe(0);
    const crc = view.getUint32(offset + 16, true);
    const size = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const local = view.getUint32(offset + 42, true);
    const name = new TextDecoder().decode(archive.subarray(offset + 46, offset + 46 + nameLength));
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const bytes = archive.slice(start, start + size);
    expect(crc32(bytes)).toBe(crc);
    entries.set(name, bytes);
    offset += 46 + nameLength;
  }
  return entries;
}

describe('the ZIP a shared link page builds', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('holds every entry byte for byte under its UTF-8 name', async () => {
    const photo = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
    const zip = buildZip([
      { name: 'Señal_ñandú #3.jpg', bytes: photo },
      { name: 'vacío.txt', bytes: new Uint8Array() },
    ]);
    const entries = entriesOf(new Uint8Array(await zip.arrayBuffer()));
    expect([...entries.keys()]).toEqual(['Señal_ñandú #3.jpg', 'vacío.txt']);
    expect(entries.get('Señal_ñandú #3.jpg')).toEqual(photo);
    expect(entries.get('vacío.txt')!.length).toBe(0);
  });

  it('makes names unique and keeps folders out of them', () => {
    expect(uniqueNames(['foto.jpg', 'Foto.jpg', 'foto.jpg', 'a/b.pdf', 'README', 'README'])).toEqual([
      'foto.jpg',
      'Foto (2).jpg',
      'foto (3).jpg',
      'a_b.pdf',
      'README',
      'README (2)',
    ]);
  });
});
