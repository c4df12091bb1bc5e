import { AuthError, OAuthError } from './http.ts';

/**
 * GoTrue features this local server does not offer, answered the way GoTrue answers them when they are
 * switched off in its config (the `supabase start` defaults): SAML SSO, anonymous sign-ins, manual identity
 * linking, OAuth/OIDC providers, and Web3.
 * Messages and codes are copied from supabase/auth (internal/api/*.go) so clients branch on the same values.
 */

/** The external providers GoTrue knows (`a.Provider` in external.go); none is enabled here. */
export const EXTERNAL_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'slack',
  'slack_oidc',
  'snapchat',
  'spotify',
  'twitch',
  'twitter',
  'vercel_marketplace',
  'workos',
  'x',
  'zoom',
];
const KNOWN_PROVIDERS = new Set(EXTERNAL_PROVIDERS);

/** Issuers GoTrue checks an id_token grant against (token_oidc.go `ParseIDToken`). */
const ID_TOKEN_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  google: 'https://accounts.google.com',
  kakao: 'https://kauth.kakao.com',
  snapchat: 'https://accounts.snapchat.com',
  vercel_marketplace: 'https://marketplace.vercel.com',
};

/** `POST /token?grant_type=id_token` (signInWithIdToken) with no OIDC provider enabled. */
export function idTokenGrant(body: Record<string, unknown>): never {
  const str = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
  if (!str('id_token')) throw new OAuthError('invalid request', 'id_token required');
  const provider = str('provider');
  if (!provider && (!str('client_id') || !str('issuer'))) {
    throw new OAuthError('invalid request', 'provider or client_id and issuer required');
  }
  const issuer = ID_TOKEN_ISSUERS[provider] ?? Object.values(ID_TOKEN_ISSUERS).find((known) => known === str('issuer'));
  if (!issuer) throw new AuthError(400, 'validation_failed', `Custom OIDC provider "${provider}" not allowed`);
  throw new AuthError(400, 'provider_disabled', `Provider (issuer "${issuer}") is not enabled`);
}

/** `POST /token?grant_type=web3` (signInWithWeb3) with neither Solana nor Ethereum enabled. */
export function web3Grant(): never {
  throw new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
}

/** `POST /signup` with neither e-mail nor phone is an anonymous sign-in (api.go, the /signup route). */
export function anonymousSignIn(): never {
  throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
}

/** Everything under `/sso` (`requireSAMLEnabled`). */
export function samlDisabled(): never {
  throw new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
}

/** Everything under `/user/identities` once the caller is authenticated (`requireManualLinkingEnabled`). */
export function manualLinkingDisabled(): never {
  throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
}

/** `GET /authorize?provider=…` (signInWithOAuth's redirect target). */
export function authorize(url: URL): never {
  const provider = url.searchParams.get('provider') ?? '';
  const reason = KNOWN_PROVIDERS.has(provider.toLowerCase())
    ? 'provider is not enabled'
    : `Provider ${provider} could not be found`;
  throw new AuthError(400, 'validation_failed', `Unsupported provider: ${reason}`);
}

/** `GET|POST /callback`: no OAuth flow was ever started here, so no state can match. */
export function callback(url: URL): never {
  const state = url.searchParams.get('state');
  if (!state) throw new AuthError(400, 'bad_oauth_callback', 'OAuth state parameter missing');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(state)) {
    throw new AuthError(400, 'bad_oauth_state', 'OAuth state parameter is invalid');
  }
  throw new AuthError(400, 'bad_oauth_state', 'OAuth state not found or expired');
}

/**
 * GoTrue validates addresses with badoux/checkmail's `ValidateFormat` (mail.go `validateEmail`), which is
 * stricter than "something@something.tld": `xx:;x@x.x` is refused.
 */
const CHECKMAIL_FORMAT =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function validateEmail(email: string): void {
  if (email.length > 255) throw new AuthError(400, 'validation_failed', 'An email address is too long');
  if (!CHECKMAIL_FORMAT.test(email)) {
    throw new AuthError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
}
