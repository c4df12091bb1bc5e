import { z } from 'zod';
import { REQUIRED_FIELDS_MESSAGE } from '../../../lib/auth/messages.ts';
import { accountEmail, accountPassword } from '../../../lib/forms/account-fields.ts';

export const forgotPasswordSchema = z.object({ email: accountEmail });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const newPasswordSchema = z
  .object({
    password: accountPassword,
    repeat: z.string().min(1, REQUIRED_FIELDS_MESSAGE),
  })
  .refine((values) => values.password === values.repeat, {
    path: ['repeat'],
    message: 'Las dos contraseñas no coinciden.',
  });
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

/**
 * Mi cuenta's change: the current password (Auth checks it), the new one twice, and the mailed code once Auth
 * has asked for it.
 */
export const changePasswordSchema = z
  .object({
    current: z.string().min(1, REQUIRED_FIELDS_MESSAGE),
    password: accountPassword,
    repeat: z.string().min(1, REQUIRED_FIELDS_MESSAGE),
    code: z.string().trim(),
  })
  .refine((values) => values.password === values.repeat, {
    path: ['repeat'],
    message: 'Las dos contraseñas no coinciden.',
  });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
