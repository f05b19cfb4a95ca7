// Rules of pipeline trust policies: which issuers may be trusted, what a policy may grant, and
// whether a verified token's claims satisfy a policy. No I/O: the write plane fetches keys and
// verifies signatures, then asks these functions.
import { MAX_POLICY_CLAIMS, type TFieldIssue } from '@palisade/contracts';
import type { TPermission } from '../access/permissions';
import { compileSubjectPattern, subjectPatternProblem } from './subject-pattern';

/** Everything a pipeline token may ever carry. Disposition and break-glass stay human-only. */
export const PIPELINE_GRANTABLE_SCOPES = ['scans:create', 'gate:evaluate', 'scans:read', 'findings:read', 'org:read'] as const satisfies readonly TPermission[];
/** A policy registered without scopes grants only what a pipeline needs to scan and gate. */
export const DEFAULT_PIPELINE_SCOPES: readonly TPermission[] = ['scans:create', 'gate:evaluate'];

/** Lifetime of the pipeline access token an exchange returns (one CI job, not a session). */
export const PIPELINE_TOKEN_TTL_SECONDS = 900;
/** Tolerance for the CI provider's clock on exp/nbf. */
export const PIPELINE_OIDC_CLOCK_SKEW_SECONDS = 30;
/** Asymmetric algorithms only: an HMAC or `none` token could be forged by anyone holding the JWKS. */
export const PIPELINE_OIDC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** Claims the verification itself decides; a policy's `claims` map may not name them. */
const RESERVED_CLAIMS = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'jti', 'sub']);
// The request contract caps the map first; the rule keeps the same number for other callers.
export { MAX_POLICY_CLAIMS };
const CLAIM_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type TClaimValue = string | number | boolean;

export interface TTrustPolicyInput {
  issuer: string;
  audience: string;
  jwks_uri: string;
  subject_pattern: string;
  claims?: Record<string, TClaimValue>;
  scopes?: string[];
}

export interface TTrustPolicyRules {
  /** Plain http is accepted for loopback hosts only, and only outside production (local issuers in tests). */
  allowLoopbackHttp: boolean;
}

/** Why an issuer or JWKS URL cannot be trusted, or null when it can. */
export function trustUrlProblem(value: string, { allowLoopbackHttp }: TTrustPolicyRules): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) {
    return allowLoopbackHttp ? null : 'must use https (plain http is accepted for loopback issuers outside production only)';
  }
  return 'must use https';
}

/** Every problem of a policy a client submitted, as 422 field issues (empty when it is usable). */
export function trustPolicyProblems(input: TTrustPolicyInput, rules: TTrustPolicyRules): TFieldIssue[] {
  const issues: TFieldIssue[] = [];
  for (const field of ['issuer', 'jwks_uri'] as const) {
    const problem = trustUrlProblem(input[field], rules);
    if (problem) issues.push({ field: `body.${field}`, issue: problem });
  }
  const patternProblem = subjectPatternProblem(input.subject_pattern);
  if (patternProblem) issues.push({ field: 'body.subject_pattern', issue: patternProblem });
  const claimNames = Object.keys(input.claims ?? {});
  if (claimNames.length > MAX_POLICY_CLAIMS) issues.push({ field: 'body.claims', issue: `must have at most ${MAX_POLICY_CLAIMS} entries` });
  for (const name of claimNames) {
    if (RESERVED_CLAIMS.has(name)) issues.push({ field: `body.claims.${name}`, issue: 'is checked by the exchange itself (use issuer, audience or subject_pattern)' });
    else if (!CLAIM_NAME.test(name)) issues.push({ field: `body.claims.${name}`, issue: 'must be a claim name of letters, digits, _ . : -' });
  }
  (input.scopes ?? []).forEach((scope, i) => {
    if (!(PIPELINE_GRANTABLE_SCOPES as readonly string[]).includes(scope)) {
      issues.push({ field: `body.scopes.${i}`, issue: `is not a scope a pipeline may hold (allowed: ${PIPELINE_GRANTABLE_SCOPES.join(', ')})` });
    }
  });
  return issues;
}

/** The scopes a policy grants: the requested ones, deduplicated, or the default. */
export function pipelinePolicyScopes(requested: readonly string[] | undefined): string[] {
  return requested && requested.length > 0 ? [...new Set(requested)] : [...DEFAULT_PIPELINE_SCOPES];
}

export interface TTrustPolicyMatchable {
  subjectPattern: string;
  claims: Record<string, TClaimValue>;
}

export type TPolicyClaimsVerdict = { ok: true } | { ok: false; reason: 'subject_mismatch' } | { ok: false; reason: 'claim_mismatch'; claim: string };

/**
 * Whether a token whose signature, issuer, audience and lifetime are already verified satisfies
 * the policy's subject pattern and exact-match claims.
 */
export function matchPolicyClaims(policy: TTrustPolicyMatchable, payload: Record<string, unknown>): TPolicyClaimsVerdict {
  const subject = payload.sub;
  if (typeof subject !== 'string' || !compileSubjectPattern(policy.subjectPattern).matches(subject)) {
    return { ok: false, reason: 'subject_mismatch' };
  }
  for (const [claim, expected] of Object.entries(policy.claims)) {
    if (payload[claim] !== expected) return { ok: false, reason: 'claim_mismatch', claim };
  }
  return { ok: true };
}
