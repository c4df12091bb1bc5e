// Staff accounts (list, create, delete, set a password, invite), for ADMINs only. The caller's
// role is checked in the database; the account work then runs with the service role through the Auth
// admin API, and the role row is kept in step with the account.
import { z } from 'zod';
import { HttpError, json, readJson, serve } from '../_shared/http.ts';
import { requireStaff, serviceClient } from '../_shared/auth.ts';

const REQUIRED = 'Todos los campos son obligatorios';
const roles = ['ADMIN', 'UPLOADER', 'FRONT', 'OPERATIONS'] as const;

const requestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('list') }),
  z.object({
    action: z.literal('create'),
    email: z.string().trim().min(1, REQUIRED).email('El campo debe ser un correo electrónico válido.'),
    password: z.string().min(1, REQUIRED),
    role: z.enum(roles, { message: REQUIRED }),
  }),
  z.object({
    action: z.literal('invite'),
    email: z.string().trim().min(1, REQUIRED).email('El campo debe ser un correo electrónico válido.'),
    role: z.enum(roles, { message: REQUIRED }),
    // Where the invitation link leads (the app's /reset-password); Auth ignores one not in its allow list.
    redirectTo: z.string().url().optional(),
  }),
  z.object({ action: z.literal('delete'), uid: z.string().uuid(REQUIRED) }),
  z.object({
    action: z.literal('update-role'),
    uid: z.string().uuid(REQUIRED),
    role: z.enum(roles, { message: REQUIRED }),
  }),
  z.object({
    action: z.literal('update-password'),
    uid: z.string().uuid(REQUIRED),
    password: z.string().min(1, REQUIRED),
  }),
]);

function authError(error: { code?: string; message: string; status?: number }): never {
  if (error.code === 'email_exists' || error.code === 'user_already_exists') {
    throw new HttpError(409, 'EMAIL_EXISTS', 'Ya existe un usuario con ese correo electrónico.');
  }
  if (error.code === 'weak_password') {
    throw new HttpError(400, 'WEAK_PASSWORD', 'La contraseña debe tener al menos 6 caracteres.');
  }
  if (error.code === 'user_not_found') throw new HttpError(404, 'USER_NOT_FOUND', 'El usuario no existe.');
  // Any other refusal of what was sent (an address Auth does not accept, say) is the request's, not ours.
  if (error.status !== undefined && error.status >= 400 && error.status < 500) {
    throw new HttpError(400, 'AUTH_REFUSED', 'Auth no aceptó los datos del usuario. Revisa el correo y la contraseña.');
  }
  throw new HttpError(502, 'AUTH_ERROR', 'No se pudo completar la operación con el usuario.');
}

/** The database refuses to lose its last ADMIN (migration last_admin_rule); say so instead of a 500. */
function databaseError(error: { hint?: string; message: string }): never {
  if (error.hint === 'LAST_ADMIN')
    throw new HttpError(409, 'LAST_ADMIN', 'No se puede quitar el último administrador.');
  throw error;
}

serve(async (request) => {
  const { user: caller } = await requireStaff(request, ['ADMIN']);
  const parsed = requestSchema.safeParse(await readJson(request));
  if (!parsed.success) throw new HttpError(400, 'VALIDATION', parsed.error.issues[0]?.message ?? REQUIRED);
  const body = parsed.data;
  const admin = serviceClient();

  if (body.action === 'list') {
    const users = [];
    for (let page = 1; ; page++) {
      const { data, error } = await admin.auth.admin.listUsers({ page, perPage: 1000 });
      if (error) authError(error);
      users.push(...data.users);
      if (data.users.length < 1000) break;
    }
    const { data: staff, error } = await admin.from('staff').select('user_id, role');
    if (error) throw error;
    // Academy members sign in to the academy API with Auth accounts of their own: they are not staff, and
    // Usuarios (the staff accounts) does not list them. An account with neither link still shows, 'Sin rol'.
    const { data: members, error: membersError } = await admin
      .from('academy_users')
      .select('auth_user_id')
      .not('auth_user_id', 'is', null);
    if (membersError) throw membersError;
    const roleOf = new Map(staff.map((row) => [row.user_id, row.role]));
    const academyMembers = new Set(members.map((row) => row.auth_user_id));
    const list = users
      .filter((user) => roleOf.has(user.id) || !academyMembers.has(user.id))
      .map((user) => ({
        uid: user.id,
        email: user.email ?? '',
        role: roleOf.get(user.id) ?? null,
        createdAt: user.created_at,
        lastSignInAt: user.last_sign_in_at ?? null,
      }))
      .sort((a, b) => a.email.localeCompare(b.email, 'es'));
    return json(200, { users: list });
  }

  if (body.action === 'create') {
    const created = await admin.auth.admin.createUser({
      email: body.email,
      password: body.password,
      email_confirm: true,
    });
    if (created.error) authError(created.error);
    const staff = await admin
      .from('staff')
      .insert({ user_id: created.data.user.id, email: body.email.toLowerCase(), role: body.role });
    if (staff.error) {
      // Without its role the account would be unusable: undo it rather than leave half a user.
      await admin.auth.admin.deleteUser(created.data.user.id);
      throw staff.error;
    }
    return json(200, { uid: created.data.user.id, email: body.email.toLowerCase(), role: body.role });
  }

  if (body.action === 'invite') {
    // The person chooses their own password from the mailed link: nobody else ever knows it.
    const invited = await admin.auth.admin.inviteUserByEmail(body.email, { redirectTo: body.redirectTo });
    if (invited.error) authError(invited.error);
    const staff = await admin
      .from('staff')
      .insert({ user_id: invited.data.user.id, email: body.email.toLowerCase(), role: body.role });
    if (staff.error) {
      await admin.auth.admin.deleteUser(invited.data.user.id);
      throw staff.error;
    }
    return json(200, { uid: invited.data.user.id, email: body.email.toLowerCase(), role: body.role });
  }

  if (body.action === 'update-role') {
    if (body.uid === caller.id) throw new HttpError(400, 'CANNOT_CHANGE_OWN_ROLE', 'No puedes cambiar tu propio rol.');
    const { data, error } = await admin
      .from('staff')
      .update({ role: body.role })
      .eq('user_id', body.uid)
      .select('user_id');
    if (error) databaseError(error);
    if (!data.length) throw new HttpError(404, 'USER_NOT_FOUND', 'El usuario no existe.');
    return json(200, { uid: body.uid, role: body.role });
  }

  if (body.action === 'delete') {
    if (body.uid === caller.id) throw new HttpError(400, 'CANNOT_DELETE_SELF', 'No puedes borrar tu propio usuario.');
    const deleted = await admin.auth.admin.deleteUser(body.uid);
    if (deleted.error) authError(deleted.error);
    return json(200, { uid: body.uid });
  }

  const updated = await admin.auth.admin.updateUserById(body.uid, { password: body.password });
  if (updated.error) authError(updated.error);
  return json(200, { uid: body.uid });
});
