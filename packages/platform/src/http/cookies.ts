import type { RequestHandler } from 'express';

/** More cookies than a browser sends for one path are not read (the rest are ignored). */
const MAX_COOKIES = 64;

/**
 * `req.cookies` as plain strings, name → value (the first of duplicates, as browsers order the
 * most specific path first). cookie-parser is not used: it JSON-decodes any value starting with
 * `j:`, so a client could hand a route an object or a number where it reads a token.
 */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (!header) return cookies;
  let count = 0;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (!name || name in cookies) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies[name] = decode(value);
    if (++count >= MAX_COOKIES) break;
  }
  return cookies;
}

function decode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    // Not valid percent-encoding: the value as sent, which no token will match.
    return value;
  }
}

export function cookies(): RequestHandler {
  return (req, _res, next) => {
    req.cookies = parseCookieHeader(req.headers.cookie);
    next();
  };
}
