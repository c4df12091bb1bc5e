import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';
import { createAuthApp } from './app.ts';
import { mountHono } from '../http/mount.ts';
import { createAuthDeps, type AuthOptions } from './context.ts';
import type { Mailer } from './mail/mailer.ts';
import { metaRoutes } from './routes/meta.ts';
import { tokenRoutes } from './routes/token.ts';
import { verifyRoutes } from './routes/verify.ts';
import { signupRoutes } from './routes/signup.ts';
import { userRoutes } from './routes/user.ts';
import { logoutRoutes } from './routes/logout.ts';
import { recoverRoutes } from './routes/recover.ts';
import { otpRoutes } from './routes/otp.ts';
import { resendRoutes } from './routes/resend.ts';
import { reauthenticateRoutes } from './routes/reauthenticate.ts';
import { inviteRoutes } from './routes/invite.ts';
import { generateLinkRoutes } from './routes/generate-link.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { oauthDisabledRoutes } from './routes/oauth-disabled.ts';
import { factorRoutes } from './routes/factors.ts';
import { adminFactorRoutes } from './routes/admin-factors.ts';
import { adminOAuthClientRoutes } from './routes/admin-oauth-clients.ts';

/**
 * The GoTrue API that supabase-js uses: password and refresh-token
 * grants with rotation, the e-mail flows (recovery, magic link/OTP, invite, generate_link, reauthenticate,
 * verify), TOTP multi-factor (/factors, admin factors), the user endpoints, logout scopes, settings, and the admin users API. Users, identities, sessions
 * and refresh tokens are real rows in the `auth` schema, so triggers and foreign keys on auth.users behave
 * as on Supabase. One Hono route file per endpoint group under routes/.
 */
export async function createAuthService(
  ctx: ServiceContext,
  config: ProjectConfig['auth'],
  mailer: Mailer,
  options: AuthOptions = {},
): Promise<MountedService> {
  const deps = createAuthDeps(ctx, config, mailer, options);
  const app = createAuthApp(ctx.log);
  for (const register of [
    metaRoutes,
    tokenRoutes,
    verifyRoutes,
    signupRoutes,
    oauthDisabledRoutes,
    userRoutes,
    logoutRoutes,
    recoverRoutes,
    otpRoutes,
    resendRoutes,
    reauthenticateRoutes,
    inviteRoutes,
    factorRoutes,
    adminUserRoutes,
    adminFactorRoutes,
    adminOAuthClientRoutes,
    generateLinkRoutes,
  ]) {
    register(app, deps);
  }
  return mountHono(app, { close: async () => {} });
}
