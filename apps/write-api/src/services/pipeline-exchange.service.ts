// Pipeline OIDC exchange: a CI job presents its provider's ID token, a trust policy whose issuer,
// audience, subject pattern and claims it satisfies decides the organization and the scopes, and
// the job gets a short-lived pipeline access token. Keys come from the policy's jwks_uri through
// jose's remote JWK set (cached; refetched on an unknown kid after a cooldown, so a provider's
// key rotation is picked up without letting garbage tokens hammer the provider).
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import type { AuditLogRepo, TrustPolicyRepo } from '@palisade/db';
import {
  AppError,
  issuerUnavailable,
  matchPolicyClaims,
  PIPELINE_OIDC_ALGORITHMS,
  PIPELINE_OIDC_CLOCK_SKEW_SECONDS,
  PIPELINE_TOKEN_TTL_SECONDS,
  pipelineExchangeRefusal,
  REFUSAL_STAGE,
  trustUrlProblem,
  type TClaimValue,
  type TPipelineExchangeRefusal,
} from '@palisade/domain';
import type { Logger, TAccessTokenService } from '@palisade/platform';

// jose 6 is ESM-only; Node 20.20 require()s it and Jest compiles it (jest.preset.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jose: typeof Jose = require('jose');

export interface TJwksOptions {
  /** After a fetch, an unknown kid triggers no refetch for this long. */
  cooldownMs: number;
  /** A cached JWKS is refetched once it is this old. */
  cacheMaxAgeMs: number;
  timeoutMs: number;
}

const DEFAULT_JWKS_OPTIONS: TJwksOptions = { cooldownMs: 10_000, cacheMaxAgeMs: 10 * 60_000, timeoutMs: 5_000 };
// Distinct JWKS URLs kept in memory; policies are few, this only bounds a pathological table.
const MAX_JWKS_SETS = 500;
const AUDIT_TEXT_MAX = 200;

export interface TExchangeResult {
  accessToken: string;
  expiresIn: number;
  organizationId: string;
  scopes: string[];
}

type TPolicy = Awaited<ReturnType<TrustPolicyRepo['byIssuer']>>[number];

/** A refusal with the reason the audit records. */
class Refusal extends Error {
  constructor(
    readonly reason: TPipelineExchangeRefusal,
    readonly detail?: string,
  ) {
    super(reason);
  }
}

class JwksUnavailable extends Error {}

export function makePipelineExchangeService({
  trustPolicies,
  audit,
  accessTokens,
  allowLoopbackHttp,
  log,
  jwksOptions = DEFAULT_JWKS_OPTIONS,
}: {
  trustPolicies: Pick<TrustPolicyRepo, 'orgsTrustingIssuer' | 'byIssuer'>;
  audit: Pick<AuditLogRepo, 'append'>;
  accessTokens: Pick<TAccessTokenService, 'issue'>;
  allowLoopbackHttp: boolean;
  log: Pick<Logger, 'error'>;
  jwksOptions?: TJwksOptions;
}) {
  const jwksSets = new Map<string, Jose.JWTVerifyGetKey>();

  function jwksFor(uri: string): Jose.JWTVerifyGetKey {
    let remote = jwksSets.get(uri);
    if (!remote) {
      if (jwksSets.size >= MAX_JWKS_SETS) jwksSets.delete(jwksSets.keys().next().value as string);
      remote = jose.createRemoteJWKSet(new URL(uri), {
        cooldownDuration: jwksOptions.cooldownMs,
        cacheMaxAge: jwksOptions.cacheMaxAgeMs,
        timeoutDuration: jwksOptions.timeoutMs,
      });
      jwksSets.set(uri, remote);
    }
    const fetchKeys = remote;
    // Tell "the provider is down" (retryable) apart from "no such key" (a bad token).
    return async (header, token) => {
      try {
        return await fetchKeys(header, token);
      } catch (error) {
        if (error instanceof jose.errors.JWKSNoMatchingKey || error instanceof jose.errors.JWKSMultipleMatchingKeys) throw error;
        throw new JwksUnavailable('jwks fetch failed', { cause: error });
      }
    };
  }

  /** Verifies the token against one policy; the verified payload, or the reason it fails. */
  async function verifyAgainst(policy: TPolicy, token: string): Promise<Jose.JWTPayload> {
    // A policy stored before a rule tightened (or an http loopback policy in production) is never fetched.
    if (trustUrlProblem(policy.jwksUri, { allowLoopbackHttp })) throw new Refusal('unknown_signing_key', 'The trust policy\'s jwks_uri is not usable here.');
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, jwksFor(policy.jwksUri), {
        issuer: policy.issuer,
        audience: policy.audience,
        algorithms: [...PIPELINE_OIDC_ALGORITHMS],
        clockTolerance: PIPELINE_OIDC_CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      throw classify(error);
    }
    const verdict = matchPolicyClaims({ subjectPattern: policy.subjectPattern, claims: policy.claims as Record<string, TClaimValue> }, payload);
    if (!verdict.ok) throw verdict.reason === 'claim_mismatch' ? new Refusal('claim_mismatch', `(claim ${verdict.claim})`) : new Refusal('subject_mismatch');
    return payload;
  }

  return {
    async exchange(input: { token: string; organizationId?: string }, meta: { correlationId: string }): Promise<TExchangeResult> {
      const claimed = peek(input.token);
      let auditOrg: string | null = null;
      let policyId: string | null = null;
      try {
        if (!claimed.ok) throw new Refusal(claimed.reason);
        const orgs = await trustPolicies.orgsTrustingIssuer(claimed.issuer, 2);
        if (orgs.length === 0) throw new Refusal('unknown_issuer');
        if (input.organizationId === undefined && orgs.length > 1) {
          throw new AppError('validation_failed', {
            message: 'Several organizations trust this issuer; name the one to act in.',
            errors: [{ field: 'body.organization_id', issue: 'required when several organizations trust the token\'s issuer' }],
          });
        }
        const orgId = input.organizationId ?? orgs[0];
        const candidates = await trustPolicies.byIssuer(orgId, claimed.issuer);
        if (candidates.length === 0) throw new Refusal('not_trusted_by_organization');
        auditOrg = orgId;

        let best: Refusal | undefined;
        for (const policy of candidates) {
          let payload: Jose.JWTPayload;
          try {
            payload = await verifyAgainst(policy, input.token);
          } catch (error) {
            if (error instanceof JwksUnavailable) {
              log.error({ err: error.cause, jwksUri: policy.jwksUri, trustPolicyId: policy.id }, 'pipeline issuer JWKS unavailable');
              throw issuerUnavailable(Math.ceil(jwksOptions.cooldownMs / 1000));
            }
            if (!(error instanceof Refusal)) throw error;
            if (!best || REFUSAL_STAGE[error.reason] > REFUSAL_STAGE[best.reason]) {
              best = error;
              policyId = policy.id;
            }
            continue;
          }
          policyId = policy.id;
          const scopes = [...policy.scopes];
          const { token, expiresIn } = await accessTokens.issue(
            { kind: 'pipeline', id: policy.id, isPlatformAdmin: false, orgId, scopes },
            PIPELINE_TOKEN_TTL_SECONDS,
          );
          await audit.append(orgId, {
            actorType: 'pipeline',
            actorId: clip(payload.sub),
            action: 'pipeline.token_exchanged',
            targetType: 'pipeline_trust_policy',
            targetId: policy.id,
            correlationId: meta.correlationId,
            data: { outcome: 'issued', issuer: clip(policy.issuer), subject: clip(payload.sub), token_id: tokenIdOf(token), scopes, expires_in: expiresIn },
          });
          return { accessToken: token, expiresIn, organizationId: orgId, scopes };
        }
        throw best ?? new Refusal('verification_failed');
      } catch (error) {
        const refusal =
          error instanceof Refusal ? pipelineExchangeRefusal(error.reason, error.detail) : error instanceof AppError ? error : undefined;
        if (!refusal) throw error;
        // The refusal is what the caller needs; an audit hiccup is logged, not turned into a 500.
        await audit.append(auditOrg, {
          actorType: 'pipeline',
          actorId: claimed.ok ? clip(claimed.subject) : null,
          action: 'pipeline.token_exchange_refused',
          targetType: policyId ? 'pipeline_trust_policy' : null,
          targetId: policyId,
          correlationId: meta.correlationId,
          data: {
            outcome: 'refused',
            reason: error instanceof Refusal ? error.reason : refusal.code,
            // Unverified, as the caller claimed them: useful for spotting a misconfigured job.
            claimed_issuer: claimed.ok ? clip(claimed.issuer) : null,
            claimed_subject: claimed.ok ? clip(claimed.subject) : null,
          },
        }).catch((auditError: unknown) => log.error({ err: auditError }, 'audit of a refused pipeline exchange failed'));
        throw refusal;
      }
    },
  };
}

export type TPipelineExchangeService = ReturnType<typeof makePipelineExchangeService>;

type TPeek = { ok: true; issuer: string; subject: string | null } | { ok: false; reason: TPipelineExchangeRefusal };

/** Reads header and issuer before any verification, to pick policies and refuse junk early. */
function peek(token: string): TPeek {
  let header: Jose.ProtectedHeaderParameters;
  let payload: Jose.JWTPayload;
  try {
    header = jose.decodeProtectedHeader(token);
    payload = jose.decodeJwt(token);
  } catch {
    return { ok: false, reason: 'malformed_token' };
  }
  if (token.split('.').length !== 3) return { ok: false, reason: 'malformed_token' };
  if (typeof header.alg !== 'string' || !(PIPELINE_OIDC_ALGORITHMS as readonly string[]).includes(header.alg)) {
    return { ok: false, reason: 'unsupported_algorithm' };
  }
  if (typeof payload.iss !== 'string' || payload.iss.length === 0 || payload.iss.length > 2048) return { ok: false, reason: 'unknown_issuer' };
  return { ok: true, issuer: payload.iss, subject: typeof payload.sub === 'string' ? payload.sub : null };
}

function classify(error: unknown): Refusal | JwksUnavailable {
  if (error instanceof JwksUnavailable) return error;
  const e = jose.errors;
  if (error instanceof e.JWTExpired) return new Refusal('expired');
  if (error instanceof e.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return new Refusal('audience_mismatch');
    if (error.claim === 'nbf') return new Refusal('not_yet_valid');
    if (error.reason === 'missing') return new Refusal('missing_claim');
    return new Refusal('verification_failed', `(claim ${error.claim})`);
  }
  if (error instanceof e.JWKSNoMatchingKey || error instanceof e.JWKSMultipleMatchingKeys) return new Refusal('unknown_signing_key');
  if (error instanceof e.JWSSignatureVerificationFailed) return new Refusal('bad_signature');
  if (error instanceof e.JOSEAlgNotAllowed || error instanceof e.JOSENotSupported) return new Refusal('unsupported_algorithm');
  if (error instanceof e.JWSInvalid || error instanceof e.JWTInvalid) return new Refusal('malformed_token');
  if (error instanceof e.JOSEError) return new Refusal('verification_failed');
  // Not a verdict about the token (a bug, a crypto failure): let it be a 500 with its stack logged.
  throw error;
}

function clip(value: unknown): string | null {
  return typeof value === 'string' ? value.slice(0, AUDIT_TEXT_MAX) : null;
}

function tokenIdOf(token: string): string | null {
  const jti = jose.decodeJwt(token).jti;
  return typeof jti === 'string' ? jti : null;
}
