import { z } from 'zod';

export const REQUIRED_FIELDS = 'Todos los campos son obligatorios';

export const forgotPasswordSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, REQUIRED_FIELDS)
    .max(320, 'El campo no debe ser mayor a 320 caracteres.')
    .email('El campo debe ser un correo electrónico válido.'),
});
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const newPasswordSchema = z
  .object({
    password: z
      .string()
      .min(1, REQUIRED_FIELDS)
      .min(6, 'El campo debe tener al menos 6 caracteres.')
      .max(72, 'El campo no debe ser mayor a 72 caracteres.'),
    repeat: z.string().min(1, REQUIRED_FIELDS),
  })
  .refine((values) => values.password === values.repeat, {
    path: ['repeat'],
    message: 'Las dos contraseñas no coinciden.',
  });
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;
