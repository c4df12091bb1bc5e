import { describe, expect, it } from 'vitest';
import { createAuthDeps } from './context.ts';
import { parseProjectConfig } from '../project-config.ts';
import type { ServiceContext } from '../service.ts';
import type { Mailer } from './mail/mailer.ts';

/** GoTrue's RATE_LIMIT_EMAIL_SENT as the CLI sets it from config.toml, and when GoTrue counts against it. */
const depsFor = (auth: Record<string, unknown>) => {
  const ctx = { jwtSecret: 'x'.repeat(32), apiUrl: 'http://127.0.0.1:54321' } as ServiceContext;
  return createAuthDeps(ctx, parseProjectConfig({ auth }, '/p').auth, {} as Mailer, {});
};
const sendOne = (deps: ReturnType<typeof depsFor>) => {
  try {
    deps.limitEmail();
    return 'sent';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('project-wide e-mail limit', () => {
  it('counts mails only with confirmations on, `email_sent` per hour when SMTP is configured', () => {
    const deps = depsFor({
      rate_limit: { email_sent: 2 },
      email: { enable_confirmations: true, smtp: { enabled: true } },
    });
    expect([sendOne(deps), sendOne(deps), sendOne(deps)]).toEqual(['sent', 'sent', 'over_email_send_rate_limit']);
  });

  it('is 360000 per hour with the local mail catcher, and not counted in autoconfirm mode', () => {
    const catcher = depsFor({ rate_limit: { email_sent: 2 }, email: { enable_confirmations: true } });
    expect(Array.from({ length: 5 }, () => sendOne(catcher))).toEqual(Array(5).fill('sent'));
    const autoconfirm = depsFor({ rate_limit: { email_sent: 1 }, email: { smtp: { enabled: true } } });
    expect(Array.from({ length: 3 }, () => sendOne(autoconfirm))).toEqual(Array(3).fill('sent'));
  });

  it('refuses every mail when email_sent is 0', () => {
    expect(sendOne(depsFor({ rate_limit: { email_sent: 0 }, email: { smtp: { enabled: true } } }))).toBe(
      'over_email_send_rate_limit',
    );
  });
});
