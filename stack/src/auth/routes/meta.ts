import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import { jsonResponse } from '../http.ts';
import { EXTERNAL_PROVIDERS } from '../disabled-features.ts';

// GoTrue's /settings lists every external provider, and anonymous sign-ins with them.
const PROVIDERS = ['anonymous_users', ...EXTERNAL_PROVIDERS];

/** `GET /health`, `GET /settings` and the JWKS (the public signing keys; empty with the HS256 secret alone). */
export function metaRoutes(app: AuthApp, { config, ctx }: AuthDeps) {
  app.get('/health', () =>
    jsonResponse(200, {
      version: 'mediateca-local',
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    }),
  );
  app.get('/settings', () =>
    jsonResponse(200, {
      external: {
        ...Object.fromEntries(PROVIDERS.map((name) => [name, false])),
        anonymous_users: config.enableAnonymousSignIns,
        email: true,
        phone: false,
      },
      disable_signup: !config.enableSignup,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    }),
  );
  app.get('/.well-known/jwks.json', () =>
    jsonResponse(200, ctx.jwtKeys.publicJwks(), { 'Cache-Control': 'public, max-age=600' }),
  );
}
