import { z } from 'zod';

/** What get_public_file / get_public_collection return: only what a public page may show. */
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

export type PublicFile = z.infer<typeof publicFileSchema>;
export type PublicCollection = z.infer<typeof publicCollectionSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id in a shared link is "not available", like an unknown one, without asking the server. */
export const isUuid = (value: string) => UUID.test(value);
