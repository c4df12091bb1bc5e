import { supabase } from '../../../lib/supabase.ts';
import { openAnswerSchema, type OpenAnswer } from './schemas.ts';

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
