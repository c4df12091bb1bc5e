import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import { listenOn } from './net.ts';

/**
 * The local mail catcher: what Inbucket/Mailpit is to `supabase start`. An SMTP server (smtp-server) that keeps
 * every message in memory, and a small web page + JSON API to read them (the app's e-mail links are clicked
 * from there, tests read mails from the API). Nothing ever leaves the machine.
 *
 * API: GET /api/messages[?to=address] → [{id, from, to, subject, date}], newest first;
 *      GET /api/messages/{id} → {…, html, text}; DELETE /api/messages → empties the box.
 */
export interface CaughtMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  date: string;
  html: string;
  text: string;
}

export interface MailCatcher {
  url: string;
  smtpPort: number;
  close(): Promise<void>;
}

const MAX_MESSAGES = 500;

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) =>
    group.value.map((entry) => (entry.address ?? '').toLowerCase()),
  );

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export async function startMailCatcher(options: {
  host: string;
  port: number;
  smtpPort: number;
}): Promise<MailCatcher> {
  const messages: CaughtMessage[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.unshift({
            id: crypto.randomUUID(),
            from: addresses(parsed.from)[0] ?? '',
            to: addresses(parsed.to),
            subject: parsed.subject ?? '',
            date: (parsed.date ?? new Date()).toISOString(),
            html: typeof parsed.html === 'string' ? parsed.html : '',
            text: parsed.text ?? '',
          });
          messages.length = Math.min(messages.length, MAX_MESSAGES);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(options.smtpPort, options.host, () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const summary = ({ html: _html, text: _text, ...rest }: CaughtMessage) => rest;
  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://catcher.local');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const one = /^\/api\/messages\/([\w-]+)$/.exec(url.pathname);
    if (url.pathname === '/api/messages' && req.method === 'GET') {
      const to = url.searchParams.get('to')?.toLowerCase();
      return json(200, messages.filter((message) => !to || message.to.includes(to)).map(summary));
    }
    if (url.pathname === '/api/messages' && req.method === 'DELETE') {
      messages.length = 0;
      return json(200, {});
    }
    if (one && req.method === 'GET') {
      const message = messages.find((candidate) => candidate.id === one[1]);
      return message ? json(200, message) : json(404, { error: 'not found' });
    }
    const view = /^\/messages\/([\w-]+)$/.exec(url.pathname);
    if (view && req.method === 'GET') {
      const message = messages.find((candidate) => candidate.id === view[1]);
      if (!message) return void res.writeHead(404).end();
      // The mail's own HTML, as a mail client would show it.
      return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(message.html);
    }
    if (url.pathname === '/' && req.method === 'GET') {
      const rows = messages
        .map(
          (message) =>
            `<tr><td>${escapeHtml(new Date(message.date).toLocaleString('es-ES'))}</td>` +
            `<td>${escapeHtml(message.to.join(', '))}</td>` +
            `<td><a href="/messages/${message.id}">${escapeHtml(message.subject)}</a></td></tr>`,
        )
        .join('');
      return void res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Correo local</title></head>` +
            `<body style="font-family:sans-serif;margin:2rem"><h1>Correo local (${messages.length})</h1>` +
            `<table cellpadding="6"><thead><tr><th>Fecha</th><th>Para</th><th>Asunto</th></tr></thead>` +
            `<tbody>${rows}</tbody></table></body></html>`,
        );
    }
    json(404, { error: 'not found' });
  });
  await listenOn(web, options.port, options.host);
  const webPort = (web.address() as AddressInfo).port;

  return {
    url: `http://${options.host}:${webPort}`,
    smtpPort,
    async close() {
      web.closeAllConnections();
      await new Promise<void>((resolve) => web.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
