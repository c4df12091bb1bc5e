import { describe, expect, it } from 'vitest';
import { categorySchema, videoSchema, videoUrlSchema } from './schemas.ts';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe('Academy form rules', () => {
  it('requires a valid http(s) URL for the fetch step', () => {
    expect(firstMessage(videoUrlSchema.safeParse({ url: '  ' }))).toBe('Todos los campos son obligatorios');
    expect(firstMessage(videoUrlSchema.safeParse({ url: 'no es una url' }))).toBe('El campo no es una URL válida.');
    expect(firstMessage(videoUrlSchema.safeParse({ url: 'ftp://youtube.com/watch?v=abcdefg' }))).toBe(
      'El campo no es una URL válida.',
    );
    expect(videoUrlSchema.safeParse({ url: ' https://youtu.be/M7lc1UVf_VE ' }).data).toEqual({
      url: 'https://youtu.be/M7lc1UVf_VE',
    });
  });

  it('requires a title and a language es or en', () => {
    expect(firstMessage(videoSchema.safeParse({ title: ' ', language: 'es', categoryIds: [] }))).toBe(
      'Todos los campos son obligatorios',
    );
    expect(videoSchema.safeParse({ title: 'Hola', language: 'fr', categoryIds: [] }).success).toBe(false);
    expect(videoSchema.safeParse({ title: 'x'.repeat(301), language: 'es', categoryIds: [] }).success).toBe(false);
    expect(videoSchema.safeParse({ title: ' Hola ', language: 'en', categoryIds: ['a'] }).data?.title).toBe('Hola');
  });

  it('requires both names of a category', () => {
    expect(firstMessage(categorySchema.safeParse({ nameEs: 'Recepción', nameEn: '', isPrivate: false }))).toBe(
      'Todos los campos son obligatorios',
    );
    expect(categorySchema.safeParse({ nameEs: 'Recepción', nameEn: 'Front desk', isPrivate: true }).success).toBe(true);
  });
});
