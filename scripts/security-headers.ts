import type { Plugin } from 'vite';

/**
 * The app's security headers, derived from the deployment's Supabase URL (the only other origin the app talks
 * to). Scripts come from the app's own origin only — no 'unsafe-inline', no eval ('wasm-unsafe-eval' lets the
 * upload screen's hashing worker compile its WebAssembly SHA-256, which is not JavaScript eval and needs a
 * module the app itself ships); styles may be inline because
 * the toast and dialog libraries inject <style> elements at run time. Nobody may frame the app.
 */
export function securityHeaders(supabaseUrl: string): Record<string, string> {
  const api = new URL(supabaseUrl).origin;
  const socket = api.replace(/^http/, 'ws');
  const policy = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    // Academy videos show YouTube's own thumbnails; upload previews are blob: URLs.
    `img-src 'self' data: blob: ${api} https://i.ytimg.com`,
    `media-src 'self' blob: ${api}`,
    `connect-src 'self' ${api} ${socket}`,
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    // A ZIP built in the page is saved through a hidden same-origin frame answered by the app's service worker.
    "frame-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
}

/** The same headers in the `_headers` file format Netlify and Cloudflare Pages read from the build output. */
export function headersFile(headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join('\n')}\n`;
}

/** Reads a `_headers` file back (the rules for every path), as a static host would. */
export function parseHeadersFile(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s+([A-Za-z-]+):\s*(.+)$/.exec(line);
    if (match) headers[match[1]!] = match[2]!.trim();
  }
  return headers;
}

/**
 * Writes `dist/_headers` with every build and sends the same headers from `vite preview`. The dev server is
 * left without the CSP: React Refresh needs an inline script there, which the production policy forbids.
 */
export function securityHeadersPlugin(): Plugin {
  let headers: Record<string, string> | null = null;
  return {
    name: 'mediateca-security-headers',
    configResolved(config) {
      const url = (config.env.VITE_SUPABASE_URL as string | undefined) ?? process.env.VITE_SUPABASE_URL;
      headers = url ? securityHeaders(url) : null;
    },
    generateBundle() {
      if (!headers) {
        this.warn('VITE_SUPABASE_URL is not set: no _headers file written');
        return;
      }
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(headers) });
    },
    configurePreviewServer(server) {
      server.middlewares.use((_req, res, next) => {
        for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
        next();
      });
    },
  };
}
