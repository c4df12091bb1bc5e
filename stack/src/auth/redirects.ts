import type { AuthDeps } from './context.ts';

const LOOPBACK = /^(localhost|127(?:\.\d+){3}|\[?::1\]?)$/i;

/** additional_redirect_urls globs as GoTrue compiles them (gobwas/glob with '.' and '/' as separators). */
function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^./]*';
    else if (char === '?') source += '[^./]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** GoTrue's `IsRedirectURLValid`: the site itself (any port on loopback), or an allow-listed URL. */
export function isRedirectUrlValid(deps: AuthDeps, candidate: string): boolean {
  if (!candidate) return false;
  let base: URL;
  let target: URL;
  try {
    base = new URL(deps.config.siteUrl);
    target = new URL(candidate);
  } catch {
    return false;
  }
  if (
    base.hostname === target.hostname &&
    base.protocol === target.protocol &&
    (base.port === target.port || LOOPBACK.test(target.hostname))
  ) {
    return true;
  }
  // An IP address is allowed only on loopback (a local app on any port); a decimal-encoded one never.
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (/^\d+$/.test(host)) return false;
  if (/^[\d.]+$/.test(host) || host.includes(':')) return LOOPBACK.test(host);
  const withoutFragment = candidate.split('#')[0]!;
  return deps.config.additionalRedirectUrls.some((pattern) => globToRegExp(pattern).test(withoutFragment));
}

/** GoTrue's `GetReferrer`: `redirect_to` (header, query or body) if allowed, else the Referer, else site_url. */
export function referrerOf(deps: AuthDeps, request: Request, body: Record<string, unknown> = {}): string {
  const url = new URL(request.url);
  const asked =
    request.headers.get('redirect_to') ??
    url.searchParams.get('redirect_to') ??
    (typeof body.redirect_to === 'string' ? body.redirect_to : '');
  if (isRedirectUrlValid(deps, asked)) return asked;
  const referer = request.headers.get('referer') ?? '';
  if (isRedirectUrlValid(deps, referer)) return referer;
  return deps.config.siteUrl;
}
