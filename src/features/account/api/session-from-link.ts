import { supabase } from '../../../lib/supabase.ts';

export type LinkKind = 'recovery' | 'invite';

export type LinkOutcome = { ok: true; kind: LinkKind } | { ok: false; reason: 'expired' | 'missing' };

/**
 * Signs in with the one-time link of a recovery or invitation mail, on /reset-password only. The app's client
 * has detectSessionInUrl off on purpose: if every page took a session from its URL, any crafted link could
 * sign a visitor into someone else's account (and public share pages carry fragments of their own). Here the
 * link is read explicitly and its tokens are removed from the address bar at once.
 *
 * Two forms arrive: GoTrue's own /verify redirect (`#access_token=…&refresh_token=…&type=recovery`, or
 * `#error_code=otp_expired…`), and `?token_hash=…&type=recovery` for mail templates that link straight to
 * the app (verified here with verifyOtp, so mail scanners that open links cannot use them up).
 */
export async function sessionFromLink(location: Location): Promise<LinkOutcome> {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  window.history.replaceState(window.history.state, '', location.pathname);

  if (fragment.get('error_code') || fragment.get('error')) return { ok: false, reason: 'expired' };
  const kindOf = (value: string | null): LinkKind | null => (value === 'recovery' || value === 'invite' ? value : null);

  const accessToken = fragment.get('access_token');
  const refreshToken = fragment.get('refresh_token');
  const fragmentKind = kindOf(fragment.get('type'));
  if (accessToken && refreshToken && fragmentKind) {
    const { error } = await supabase.auth.setSession({ access_token: accessToken, refresh_token: refreshToken });
    return error ? { ok: false, reason: 'expired' } : { ok: true, kind: fragmentKind };
  }

  const tokenHash = query.get('token_hash');
  const queryKind = kindOf(query.get('type'));
  if (tokenHash && queryKind) {
    const { error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: queryKind });
    return error ? { ok: false, reason: 'expired' } : { ok: true, kind: queryKind };
  }
  return { ok: false, reason: 'missing' };
}
