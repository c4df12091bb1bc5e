import { z } from 'zod';
import { messageToStored } from './popup-message.ts';

const REQUIRED_FIELDS = 'Todos los campos son obligatorios';

/** An active popup needs a title and a message; the stored (escaped) message fits the 10,000-character column. */
export const popupSchema = z
  .object({
    title: z.string().trim().max(300, 'El campo no debe ser mayor a 300 caracteres.'),
    message: z
      .string()
      .refine((text) => messageToStored(text).length <= 10000, 'El campo no debe ser mayor a 10000 caracteres.'),
    active: z.boolean(),
  })
  .superRefine((popup, context) => {
    if (!popup.active) return;
    if (!popup.title) context.addIssue({ code: 'custom', path: ['title'], message: REQUIRED_FIELDS });
    if (!popup.message.trim()) context.addIssue({ code: 'custom', path: ['message'], message: REQUIRED_FIELDS });
  });
export type PopupValues = z.infer<typeof popupSchema>;
