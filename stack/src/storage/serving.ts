/**
 * What a browser is told about stored bytes, so that an uploaded page or script never runs in the API's origin.
 *
 * - `text/html` is answered as `text/plain`, exactly as Supabase Storage does (its renderer's
 *   normalizeContentType): the page shows as source.
 * - `X-Content-Type-Options: nosniff` on every object, so bytes that lie about their type (HTML declared as a
 *   JPEG) are never sniffed into something executable.
 * - Other types that can carry script when opened as a document (SVG, XHTML, XML, XSLT) keep their type, so
 *   `<img src>` still shows an SVG, but get a sandboxing CSP: no script, no plugins, a unique origin. Supabase
 *   leaves these to the CDN in front of Storage; a local stack has none, so the stack does it here.
 */
const ACTIVE_DOCUMENT_TYPES = new Set([
  'image/svg+xml',
  'application/xhtml+xml',
  'application/xml',
  'text/xml',
  'application/xslt+xml',
  'application/rdf+xml',
  'application/mathml+xml',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
]);

export const SANDBOX_CSP = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'";

export function servedContentType(stored: string): string {
  return stored.toLowerCase().includes('text/html') ? 'text/plain' : stored;
}

export function safetyHeaders(stored: string): Record<string, string> {
  const essence = stored.split(';')[0]!.trim().toLowerCase();
  const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
  if (ACTIVE_DOCUMENT_TYPES.has(essence) || essence.endsWith('+xml')) headers['Content-Security-Policy'] = SANDBOX_CSP;
  return headers;
}
