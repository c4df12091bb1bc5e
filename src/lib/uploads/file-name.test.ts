import { describe, expect, it } from 'vitest';
import {
  FILE_TOO_LARGE_MESSAGE,
  MAX_UPLOAD_BYTES,
  fileBaseName,
  fileExtension,
  isTooLargeToUpload,
  readableTitle,
  sanitizeFileName,
} from './file-name.ts';

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

describe('sanitizeFileName', () => {
  it.each([
    ['a/b.jpg', 'a_b.jpg'],
    ['¿qué?.png', '¿qué_.png'],
    ['<menú>.pdf', '_menú_.pdf'],
    ['back\\slash.txt', 'back_slash.txt'],
    ['hora 10:30.jpg', 'hora 10_30.jpg'],
    ['todo*.doc', 'todo_.doc'],
    ['a|b.doc', 'a_b.doc'],
    ['"cita".doc', '_cita_.doc'],
    ['playa, sol.jpg', 'playa_ sol.jpg'],
  ])('replaces the forbidden characters in %j', (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });

  it('replaces control characters (C0 and C1)', () => {
    expect(sanitizeFileName('a\u0000b\u001fc\u0085d.jpg')).toBe('a_b_c_d.jpg');
  });

  it('replaces names made only of dots', () => {
    expect(sanitizeFileName('.')).toBe('_');
    expect(sanitizeFileName('...')).toBe('_');
  });

  it('replaces reserved device names, with or without extension, in any case', () => {
    for (const name of ['CON', 'prn.txt', 'Aux.jpg', 'nul', 'COM1.pdf', 'lpt9']) {
      expect(sanitizeFileName(name)).toBe('_');
    }
    expect(sanitizeFileName('console.jpg')).toBe('console.jpg');
  });

  it('replaces trailing dots and spaces', () => {
    expect(sanitizeFileName('informe. . ')).toBe('informe_');
    expect(sanitizeFileName('foto.jpg ')).toBe('foto.jpg_');
  });

  it('keeps ordinary Spanish names untouched', () => {
    expect(sanitizeFileName('Piscina del hotel – verano 2026 (ñ).jpeg')).toBe(
      'Piscina del hotel – verano 2026 (ñ).jpeg',
    );
  });

  it('cuts to 255 bytes without breaking a multi-byte character', () => {
    const ascii = 'a'.repeat(300);
    expect(sanitizeFileName(ascii)).toHaveLength(255);

    // 'ñ' is 2 bytes: 128 of them are 256 bytes, so one must go entirely.
    const twoByte = sanitizeFileName('ñ'.repeat(128));
    expect(utf8Bytes(twoByte)).toBe(254);
    expect(twoByte).toBe('ñ'.repeat(127));

    // '€' is 3 bytes and an emoji 4: the cut never leaves a partial sequence or a lone surrogate.
    const mixed = sanitizeFileName(`${'a'.repeat(253)}€😀`);
    expect(utf8Bytes(mixed)).toBeLessThanOrEqual(255);
    expect(mixed).toBe('a'.repeat(253));
    const emoji = sanitizeFileName('😀'.repeat(70));
    expect(utf8Bytes(emoji)).toBe(252);
    expect(emoji).toBe('😀'.repeat(63));
  });
});

describe('file name parts', () => {
  it('takes the extension in lower case, and the name without it', () => {
    expect(fileExtension('Foto.JPG')).toBe('jpg');
    expect(fileBaseName('Foto.JPG')).toBe('Foto');
    expect(fileExtension('informe.final.pdf')).toBe('pdf');
    expect(fileBaseName('informe.final.pdf')).toBe('informe.final');
  });

  it('has no extension for dotfiles, names without a dot or a trailing dot', () => {
    expect(fileExtension('.bashrc')).toBe('');
    expect(fileBaseName('.bashrc')).toBe('.bashrc');
    expect(fileExtension('LEEME')).toBe('');
    expect(fileExtension('raro.')).toBe('');
  });
});

describe('upload size rule', () => {
  it('accepts exactly 1,000,000,000 bytes and refuses one byte more', () => {
    expect(MAX_UPLOAD_BYTES).toBe(1_000_000_000);
    expect(isTooLargeToUpload(1_000_000_000)).toBe(false);
    expect(isTooLargeToUpload(1_000_000_001)).toBe(true);
    expect(isTooLargeToUpload(0)).toBe(false);
  });

  it('has the Spanish refusal text', () => {
    expect(FILE_TOO_LARGE_MESSAGE).toBe('No se pueden subir archivos más grandes de 1GB');
  });
});

describe('sanitizeFileName keeps the extension when it cuts', () => {
  it('cuts a 300-character .jpg name to 255 bytes and keeps .jpg', () => {
    const name = `${'a'.repeat(296)}.jpg`;
    const result = sanitizeFileName(name);
    expect(new TextEncoder().encode(result).length).toBe(255);
    expect(result.endsWith('.jpg')).toBe(true);
    expect(fileExtension(result)).toBe('jpg');
  });

  it('never splits a multi-byte character and still keeps the extension', () => {
    const result = sanitizeFileName(`${'ñ'.repeat(200)}.jpeg`);
    expect(new TextEncoder().encode(result).length).toBeLessThanOrEqual(255);
    expect(result).toMatch(/^ñ+\.jpeg$/);
  });

  it('leaves a short name as the naming rules make it', () => {
    expect(sanitizeFileName('menú, otoño?.png')).toBe('menú_ otoño_.png');
  });
});

describe('readableTitle', () => {
  it('keeps the name as the person wrote it, symbols included, without the extension', () => {
    expect(readableTitle('Menú: «especial» 2027, #1?.jpg')).toBe('Menú: «especial» 2027, #1?');
    expect(readableTitle('Menú «especial» 2027 #1.jpg')).toBe('Menú «especial» 2027 #1');
  });

  it('turns control characters into spaces and trims, as no title may hold them', () => {
    expect(readableTitle(' a\u0000b\tc\u0085d .pdf')).toBe('a b c d');
  });

  it('cuts a title to 500 characters without splitting one', () => {
    expect([...readableTitle(`${'😀'.repeat(600)}.png`)]).toHaveLength(500);
  });
});
