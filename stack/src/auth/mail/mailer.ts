import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type { ProjectConfig } from '../../project-config.ts';
import { startMailCatcher, type MailCatcher } from '../../mail-catcher.ts';

/** GoTrue's mail kinds, named as config.toml's `[auth.email.template.NAME]` tables. */
export type MailKind = 'invite' | 'confirmation' | 'recovery' | 'magic_link' | 'email_change' | 'reauthentication';

/** What a template may use, as GoTrue's templates see it (`{{ .ConfirmationURL }}`, `{{ .Token }}`…). */
export interface MailData {
  SiteURL: string;
  ConfirmationURL?: string;
  Email: string;
  Token: string;
  TokenHash?: string;
  RedirectTo?: string;
}

export interface Mailer {
  send(kind: MailKind, to: string, data: MailData): Promise<void>;
}

// GoTrue's defaults (templatemailer.go), for a kind config.toml gives no template.
const DEFAULT_SUBJECTS: Record<MailKind, string> = {
  invite: "You've been invited",
  confirmation: 'Confirm your email address',
  recovery: 'Reset your password',
  magic_link: 'Your sign-in link',
  email_change: 'Confirm your new email address',
  reauthentication: '{{ .Token }} is your verification code',
};
const DEFAULT_BODIES: Record<MailKind, string> = {
  invite: '<h2>You have been invited</h2><p><a href="{{ .ConfirmationURL }}">Accept invitation</a></p>',
  confirmation: '<h2>Confirm your signup</h2><p><a href="{{ .ConfirmationURL }}">Confirm email address</a></p>',
  recovery: '<h2>Reset password</h2><p><a href="{{ .ConfirmationURL }}">Reset password</a></p>',
  magic_link: '<h2>Magic Link</h2><p><a href="{{ .ConfirmationURL }}">Sign in</a></p>',
  email_change: '<h2>Confirm email address change</h2><p><a href="{{ .ConfirmationURL }}">Confirm</a></p>',
  reauthentication: '<h2>Confirm reauthentication</h2><p>Enter the code: {{ .Token }}</p>',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Fills `{{ .Name }}` placeholders; values are HTML-escaped, as Go's html/template does. */
export function renderTemplate(template: string, data: MailData, escape = true): string {
  return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_whole, name: string) => {
    const value = (data as unknown as Record<string, string | undefined>)[name] ?? '';
    return escape ? escapeHtml(value) : value;
  });
}

/**
 * Sends GoTrue's mails over SMTP with nodemailer: to `[auth.email.smtp]` when config.toml enables it (a hosted
 * project's provider), else to the local mail catcher, as `supabase start` points GoTrue at Inbucket/Mailpit.
 * Templates are read on every mail so edits to supabase/templates show without a restart.
 */
export function createMailer(
  config: ProjectConfig['auth']['email'],
  local: { host: string; port: number; adminEmail: string; senderName: string },
): Mailer {
  const smtp = config.smtp;
  const transport = smtp
    ? nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.port === 465,
        auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
      })
    : nodemailer.createTransport({ host: local.host, port: local.port, secure: false, ignoreTLS: true });
  const from = smtp
    ? { name: smtp.senderName, address: smtp.adminEmail }
    : { name: local.senderName, address: local.adminEmail };

  return {
    async send(kind, to, data) {
      const template = config.templates[kind] ?? {};
      const subject = renderTemplate(template.subject ?? DEFAULT_SUBJECTS[kind], data, false);
      const body = template.contentPath ? readFileSync(template.contentPath, 'utf8') : DEFAULT_BODIES[kind];
      await transport.sendMail({ from, to, subject, html: renderTemplate(body, data) });
    },
  };
}

/**
 * Where Auth's mails go: the local catcher, as `supabase start` points GoTrue at its own, or the real server
 * of an enabled `[auth.email.smtp]` (then no catcher runs). The catcher takes config.toml's ports only when
 * `useConfigPorts` (the stack `npm start` runs); test and fault stacks take free ones, so two stacks never
 * fight over 54324.
 */
export async function startAuthMail(
  config: Pick<ProjectConfig, 'auth' | 'localSmtp'>,
  options: { host: string; useConfigPorts: boolean },
): Promise<{ mailer: Mailer; catcher: MailCatcher | null }> {
  const { localSmtp } = config;
  const catcher =
    localSmtp.enabled && !config.auth.email.smtp
      ? await startMailCatcher({
          host: options.host,
          port: options.useConfigPorts ? localSmtp.port : 0,
          smtpPort: options.useConfigPorts ? localSmtp.smtpPort : 0,
        })
      : null;
  const mailer = createMailer(config.auth.email, {
    host: options.host,
    port: catcher?.smtpPort ?? localSmtp.smtpPort,
    adminEmail: localSmtp.adminEmail,
    senderName: localSmtp.senderName,
  });
  return { mailer, catcher };
}
