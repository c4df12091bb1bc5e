import { z } from 'zod';
import { REQUIRED_FIELDS_MESSAGE } from '../../../lib/auth/messages.ts';

/** A collection's name is required (the database also refuses blank or over 200 chars). */
export const collectionNameSchema = z.object({
  name: z.string().trim().min(1, REQUIRED_FIELDS_MESSAGE).max(200, 'El campo Nombre admite como máximo 200 caracteres'),
});

export type CollectionNameForm = z.infer<typeof collectionNameSchema>;
