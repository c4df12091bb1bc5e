import { z } from 'zod';
import { supabase } from '../../../lib/supabase.ts';

const sharedFileSchema = z.object({
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

/** What open_share_link answers: the page's data, or why there is none. */
const openAnswerSchema = z.discriminatedUnion('status', [
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
    files: z.array(sharedFileSchema),
  }),
]);

export type SharedFile = z.infer<typeof sharedFileSchema>;
export type OpenAnswer = z.infer<typeof openAnswerSchema>;
export type SharedPage = Extract<OpenAnswer, { status: 'ok' }>;

/** Opens a link by its token, with the grant a right password gave earlier or with a password just typed. */
export async function openShareLink(
  token: string,
  proof: { grant?: string | null; password?: string },
  signal?: AbortSignal,
): Promise<OpenAnswer> {
  let call = supabase.rpc('open_share_link', {
    p_token: token,
    p_grant: proof.grant ?? undefined,
    p_password: proof.password,
  });
  if (signal) call = call.abortSignal(signal);
  const { data, error } = await call;
  if (error) throw error;
  return openAnswerSchema.parse(data);
}

export const sharePageKey = (token: string, grant: string | null) => ['share-page', token, grant] as const;
