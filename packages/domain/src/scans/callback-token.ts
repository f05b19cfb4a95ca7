import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Per-(scan, tool) scanner credentials. Issued when the tool row is created (and re-issued by the
 * worker when it starts a built-in tool, so only that run holds it); only the sha256 is stored,
 * in scan_tools.callback_token_hash, and it expires at the tool's deadline_at. The prefix makes a
 * leaked token recognizable to secret scanners.
 */
export const CALLBACK_TOKEN_PREFIX = 'pscb_';

export function issueCallbackToken(): { token: string; hash: string } {
  const token = `${CALLBACK_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashCallbackToken(token) };
}

/** What the callback plane compares with scan_tools.callback_token_hash (hex sha256 of the token). */
export function hashCallbackToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented token with a stored hash. */
export function callbackTokenMatches(token: string, storedHash: string | null | undefined): boolean {
  if (!storedHash) return false;
  const presented = Buffer.from(hashCallbackToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
