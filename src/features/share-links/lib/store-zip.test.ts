import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildZip, crc32, uniqueNames } from './store-zip.ts';

/** Reads back the entries of a stored (or deflated) ZIP through its central directory. */
function entriesOf(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(archive.readUInt32LE(offset)).toBe(0x02014b50);
    const method = archive.readUInt16LE(offset + 10);
    const crc = archive.readUInt32LE(offset + 16);
    const size = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const local = archive.readUInt32LE(offset + 42);
    const name = archive.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(start, start + size);
    const bytes = method === 8 ? inflateRawSync(data) : Buffer.from(data);
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
    const entries = entriesOf(Buffer.from(await zip.arrayBuffer()));
    expect([...entries.keys()]).toEqual(['Señal_ñandú #3.jpg', 'vacío.txt']);
    expect(entries.get('Señal_ñandú #3.jpg')!.equals(Buffer.from(photo))).toBe(true);
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
