import { z } from 'zod';
import { REQUIRED_FIELDS_MESSAGE } from '../auth/messages.ts';

/**
 * The rules of a staff account's e-mail and password, with their Spanish messages: one definition for the forms
 * that create an account (Usuarios) and the ones its owner uses (Mi cuenta, password recovery). Auth itself
 * checks them again on the server.
 */
export const accountEmail = z
  .string()
  .trim()
  .min(1, REQUIRED_FIELDS_MESSAGE)
  .max(320, 'El campo no debe ser mayor a 320 caracteres.')
  .email('El campo debe ser un correo electrónico válido.');

export const accountPassword = z
  .string()
  .min(1, REQUIRED_FIELDS_MESSAGE)
  // Named, not 'El campo …': beside an e-mail and a role, the person must know which field is short.
  .min(6, 'La contraseña debe tener al menos 6 caracteres.')
  .max(72, 'La contraseña no debe ser mayor a 72 caracteres.');
