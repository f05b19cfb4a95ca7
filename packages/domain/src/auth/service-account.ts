// Service accounts: long-lived, organization-bound bearer credentials for automation that has
// no CI identity to exchange. The token is `psa_` + 32 random bytes; only its sha256 is stored.
import { createHash, randomBytes } from 'node:crypto';
import type { TFieldIssue } from '@palisade/contracts';
import { roleAllows, type TPermission, type TRole } from '../access/permissions';

/** A bearer starting with this prefix is a service-account token, anything else a JWT. */
export const SERVICE_ACCOUNT_TOKEN_PREFIX = 'psa_';
const TOKEN_BYTES = 32;
/** Characters kept for display: the prefix and four of the random part. */
const TOKEN_HINT_LENGTH = SERVICE_ACCOUNT_TOKEN_PREFIX.length + 4;

/**
 * What a service account may hold. Not disposition or break-glass (human-only), and nothing that
 * mints or widens credentials (service accounts, pipeline trust, members): a leaked token must
 * not be able to make itself permanent.
 */
export const SERVICE_ACCOUNT_GRANTABLE_SCOPES = [
  'org:read',
  'scans:read',
  'scans:create',
  'findings:read',
  'gate:evaluate',
  'integrations:read',
  'integrations:manage',
  'audit:read',
] as const satisfies readonly TPermission[];

export function generateServiceAccountToken(): { token: string; tokenHash: string; tokenHint: string } {
  const token = SERVICE_ACCOUNT_TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashServiceAccountToken(token), tokenHint: token.slice(0, TOKEN_HINT_LENGTH) };
}

export function hashServiceAccountToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function isServiceAccountToken(bearer: string): boolean {
  return bearer.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX);
}

/**
 * 422 issues for scopes a service account may not hold, and for scopes the creator's own role
 * lacks (nobody hands out more than they have).
 */
export function serviceAccountScopeProblems(scopes: readonly string[], creatorRole: TRole | null): TFieldIssue[] {
  const issues: TFieldIssue[] = [];
  scopes.forEach((scope, i) => {
    if (!(SERVICE_ACCOUNT_GRANTABLE_SCOPES as readonly string[]).includes(scope)) {
      issues.push({ field: `body.scopes.${i}`, issue: `is not a scope a service account may hold (allowed: ${SERVICE_ACCOUNT_GRANTABLE_SCOPES.join(', ')})` });
    } else if (creatorRole && !roleAllows(creatorRole, scope as TPermission)) {
      issues.push({ field: `body.scopes.${i}`, issue: `exceeds your own role (${creatorRole})` });
    }
  });
  return issues;
}
