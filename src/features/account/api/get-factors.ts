import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { supabase } from '../../../lib/supabase.ts';
import { accountKeys } from './keys.ts';

/** The signed-in person's authenticator apps (TOTP factors), verified or half-enrolled. */
export async function getFactors(): Promise<Factor[]> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.all.filter((factor) => factor.factor_type === 'totp');
}

export const factorsQueryOptions = () => queryOptions({ queryKey: accountKeys.factors(), queryFn: getFactors });

export const useFactors = () => useQuery(factorsQueryOptions());
