import type { AuthApp } from '../app.ts';
import type { AuthDeps } from '../context.ts';
import * as disabled from '../disabled-features.ts';

/** OAuth, SSO and identity linking: answered as GoTrue does with every provider switched off. */
export function oauthDisabledRoutes(app: AuthApp, deps: AuthDeps) {
  app.on(['GET', 'POST'], '/callback', (c) => disabled.callback(new URL(c.req.url)));
  app.get('/authorize', (c) => disabled.authorize(new URL(c.req.url)));
  app.all('/sso', () => disabled.samlDisabled());
  app.all('/sso/*', () => disabled.samlDisabled());
  const identities = async (incoming: Parameters<AuthDeps['authenticatedUser']>[0]) => {
    await deps.authenticatedUser(incoming);
    return disabled.manualLinkingDisabled();
  };
  app.all('/user/identities', (c) => identities(c.env.incoming));
  app.all('/user/identities/*', (c) => identities(c.env.incoming));
}
