import { z } from 'zod';

export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'Todos los campos son obligatorios')
    .regex(/^\d{6}$/, 'El campo debe tener 6 cifras.'),
});
export type CodeValues = z.infer<typeof codeSchema>;
