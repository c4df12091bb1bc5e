import { z } from 'zod';

/** The Spanish messages people read under the Academy forms' fields. */
export const REQUIRED = 'Todos los campos son obligatorios';
const maxLength = (n: number) => `El campo no debe ser mayor a ${n} caracteres.`;

const requiredText = (max: number) => z.string().trim().min(1, REQUIRED).max(max, maxLength(max));

export const videoUrlSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(2082, maxLength(2082))
    .pipe(z.url({ protocol: /^https?$/, error: 'El campo no es una URL válida.' })),
});
export type VideoUrlForm = z.infer<typeof videoUrlSchema>;

export const videoSchema = z.object({
  title: requiredText(300),
  language: z.enum(['es', 'en'], { error: 'El campo debe ser es o en.' }),
  categoryIds: z.array(z.string()),
});
export type VideoForm = z.infer<typeof videoSchema>;

export const categorySchema = z.object({
  nameEs: requiredText(200),
  nameEn: requiredText(200),
  isPrivate: z.boolean(),
});
export type CategoryForm = z.infer<typeof categorySchema>;

export const userAccessSchema = z.object({ categoryIds: z.array(z.string()) });
export type UserAccessForm = z.infer<typeof userAccessSchema>;
