import { describe, expect, it } from 'vitest';
import { pictureOf } from './file-picture.ts';

const file = { object_path: 'f/u.pdf', preview_path: null, is_image: false, processing: false };

describe('pictureOf', () => {
  it('is an image’s own object', () => {
    expect(pictureOf({ ...file, object_path: 'f/u.jpg', is_image: true })).toBe('f/u.jpg');
  });

  it('is a PDF’s first-page preview when it has one, else nothing (the extension tile)', () => {
    expect(pictureOf({ ...file, preview_path: 'f/u.pdf.preview.jpg' })).toBe('f/u.pdf.preview.jpg');
    expect(pictureOf(file)).toBeNull();
  });

  it('is nothing while the file is processing', () => {
    expect(pictureOf({ ...file, is_image: true, processing: true })).toBeNull();
    expect(pictureOf({ ...file, preview_path: 'f/u.pdf.preview.jpg', processing: true })).toBeNull();
  });
});
