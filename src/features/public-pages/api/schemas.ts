import { z } from 'zod';

/**
 * A file as every visitor page receives it (get_public_file, get_public_collection, open_share_link): only
 * what a page for people outside the group may show.
 */
export const publicFileSchema = z.object({
  id: z.string(),
  nameEs: z.string(),
  nameEn: z.string(),
  descriptionEs: z.string(),
  descriptionEn: z.string(),
  extension: z.string(),
  size: z.number(),
  isImage: z.boolean(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  // The credit line printed with the picture (never the GPS or other embedded metadata). Absent from answers
  // of servers older than the rights columns.
  creator: z.string().default(''),
  credit: z.string().default(''),
  copyright: z.string().default(''),
});

export const publicCollectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  files: z.array(publicFileSchema),
});

/** What open_share_link answers: the page's data, or why there is none. */
export const openAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('unavailable') }),
  z.object({ status: z.literal('password_required') }),
  z.object({ status: z.literal('wrong_password') }),
  z.object({ status: z.literal('too_many_attempts') }),
  z.object({
    status: z.literal('ok'),
    grant: z.string().nullable(),
    name: z.string(),
    allowDownloads: z.boolean(),
    expiresAt: z.string().nullable(),
    files: z.array(publicFileSchema),
  }),
]);

export type PublicFile = z.infer<typeof publicFileSchema>;
export type PublicCollection = z.infer<typeof publicCollectionSchema>;
export type OpenAnswer = z.infer<typeof openAnswerSchema>;
export type SharedPage = Extract<OpenAnswer, { status: 'ok' }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id in a shared link is "not available", like an unknown one, without asking the server. */
export const isUuid = (value: string) => UUID.test(value);
