import { z } from 'zod';

export const REQUIRED_FIELDS = 'Todos los campos son obligatorios';
export const tooLong = (max: number) => `El campo no debe ser mayor a ${max} caracteres.`;

const bilingualName = z.string().trim().min(1, REQUIRED_FIELDS).max(200, tooLong(200));

/** A tag category needs nameEs and nameEn; the database allows 200 characters each. */
export const categorySchema = z.object({
  name_es: bilingualName,
  name_en: bilingualName,
  hide_b2c: z.boolean(),
  hide_b2b: z.boolean(),
});
export type CategoryValues = z.infer<typeof categorySchema>;

/** A tag needs nameEs, nameEn and its category. */
export const tagSchema = z.object({
  name_es: bilingualName,
  name_en: bilingualName,
  category_id: z.string().min(1, REQUIRED_FIELDS),
});
export type TagValues = z.infer<typeof tagSchema>;
