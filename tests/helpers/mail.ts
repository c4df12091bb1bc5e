import { inject } from 'vitest';
import { eventually } from './checks.ts';
import type { CaughtMessage } from '@mediateca/stack';

/** A mail as the local mail catcher's API returns it. */
type CaughtMail = CaughtMessage;

type Summary = Omit<CaughtMail, 'html' | 'text'>;

const catcherUrl = (mailUrl?: string) => mailUrl ?? inject('stack').mailUrl;

/** Every mail the catcher holds for `to`, newest first (summaries). */
export async function mailsTo(to: string, mailUrl?: string): Promise<Summary[]> {
  const response = await fetch(`${catcherUrl(mailUrl)}/api/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
  return (await response.json()) as Summary[];
}

/** Waits for the `count`-th mail to `to` (1 = the first ever sent there) and returns it in full. */
export async function nthMailTo(to: string, count: number, mailUrl?: string): Promise<CaughtMail> {
  const summary = await eventually(async () => {
    const mails = await mailsTo(to, mailUrl);
    return mails.length >= count ? mails[mails.length - count] : undefined;
  });
  const response = await fetch(`${catcherUrl(mailUrl)}/api/messages/${summary!.id}`);
  return (await response.json()) as CaughtMail;
}

/** The link a person would click: the first `href` to Auth's /verify, HTML entities undone. */
export function verifyLinkIn(mail: CaughtMail): string {
  const match = /href="([^"]*\/auth\/v1\/verify\?[^"]*)"/.exec(mail.html);
  if (!match) throw new Error(`no verify link in "${mail.subject}"`);
  return match[1]!.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(+code));
}

/** The 6-digit code printed in the mail. */
export function codeIn(mail: CaughtMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text || mail.html.replace(/<[^>]+>/g, ' '));
  if (!match) throw new Error(`no code in "${mail.subject}"`);
  return match[1]!;
}
