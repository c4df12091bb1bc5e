import { z } from 'zod';
import { REQUIRED_FIELDS_MESSAGE } from '../../../lib/auth/messages.ts';
import { accountEmail, accountPassword } from '../../../lib/forms/account-fields.ts';

/** The role enumeration of the staff table. */
export const STAFF_ROLES = ['ADMIN', 'UPLOADER', 'FRONT', 'OPERATIONS'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What each role may do here, so an admin picks the right one. */
export const roleDescriptions: Record<StaffRole, string> = {
  ADMIN: 'Administra todo',
  UPLOADER: 'Sube y edita sus archivos',
  FRONT: 'Recepción: no entra en esta web',
  OPERATIONS: 'Operaciones: no entra en esta web',
};

const password = accountPassword;

/** E-mail, password and role are required. */
export const newUserSchema = z.object({
  email: accountEmail,
  password,
  role: z.enum(STAFF_ROLES, { message: REQUIRED_FIELDS_MESSAGE }),
});
export type NewUserValues = z.infer<typeof newUserSchema>;

/**
 * 'Nuevo usuario': either an invitation mailed to the person (who then chooses their password) or, as the
 * product's original flow, a password the admin types and passes on.
 */
export const newUserFormSchema = z
  .object({
    mode: z.enum(['invite', 'password']),
    email: newUserSchema.shape.email,
    password: z.string(),
    role: newUserSchema.shape.role,
  })
  .superRefine((values, ctx) => {
    if (values.mode !== 'password') return;
    const checked = password.safeParse(values.password);
    if (!checked.success)
      ctx.addIssue({ code: 'custom', path: ['password'], message: checked.error.issues[0]!.message });
  });
export type NewUserFormValues = z.infer<typeof newUserFormSchema>;

export const passwordSchema = z.object({ password });
export type PasswordValues = z.infer<typeof passwordSchema>;
