// Why a pipeline OIDC exchange is refused, and what the honest caller should do about it. Every
// reason is a 401 `invalid_pipeline_token` except `issuer_unavailable` (503, retryable): a CI
// provider whose JWKS cannot be fetched is an outage to retry through, not a bad credential.
import { AppError } from '../errors/app-error';

export const PIPELINE_EXCHANGE_REFUSALS = {
  malformed_token: {
    message: 'The presented token is not a signed JWT.',
    hint: 'Send the raw OIDC ID token your CI provider issued for this job (three base64url parts separated by dots).',
  },
  unsupported_algorithm: {
    message: 'The token is not signed with an accepted asymmetric algorithm.',
    hint: 'Tokens signed with none or an HMAC algorithm are never accepted; use the ID token your CI provider signs (RS256, ES256, ...).',
  },
  unknown_issuer: {
    message: 'No organization trusts the issuer of this token.',
    hint: 'An organization administrator registers a trust policy for this issuer at POST /api/v2/ci/pipeline/trust-policies; check that its issuer equals the token\'s iss exactly.',
  },
  not_trusted_by_organization: {
    message: 'The named organization has no trust policy for the issuer of this token.',
    hint: 'Check organization_id, or register a trust policy for this issuer in that organization.',
  },
  unknown_signing_key: {
    message: 'The token is signed with a key the issuer does not publish.',
    hint: 'Request a fresh token from your CI provider; if the provider just rotated its keys, retry in a few seconds.',
  },
  bad_signature: {
    message: 'The token signature does not verify against the issuer\'s published keys.',
    hint: 'Send the token exactly as the CI provider issued it; a modified or re-signed token is never accepted.',
  },
  expired: {
    message: 'The token has expired.',
    hint: 'Request a new OIDC token from your CI provider right before the exchange; they live only minutes.',
  },
  not_yet_valid: {
    message: 'The token is not valid yet (nbf is in the future).',
    hint: 'Check the clock of the machine that minted the token, or retry in a moment.',
  },
  missing_claim: {
    message: 'The token lacks a claim the exchange requires (exp and sub).',
    hint: 'Use the ID token your CI provider issues for the job; it carries exp and sub.',
  },
  audience_mismatch: {
    message: 'The token was issued for another audience.',
    hint: 'Request the OIDC token with the audience registered in the organization\'s trust policy (e.g. the `audience` input of your CI provider\'s OIDC step).',
  },
  subject_mismatch: {
    message: 'The token subject is outside every trust policy of this issuer.',
    hint: 'Run the job from a repository, branch or environment the trust policy\'s subject_pattern allows, or ask an administrator to widen the pattern.',
  },
  claim_mismatch: {
    message: 'A claim of the token differs from what the trust policy requires.',
    hint: 'Compare the token\'s claims with the claims map of the organization\'s trust policy.',
  },
  verification_failed: {
    message: 'The token failed verification.',
    hint: 'Send an unmodified, current OIDC token from your CI provider.',
  },
} as const satisfies Record<string, { message: string; hint: string }>;

export type TPipelineExchangeRefusal = keyof typeof PIPELINE_EXCHANGE_REFUSALS;

/**
 * How far a token got before a policy refused it. With several candidate policies the refusal
 * reported is the one that got furthest: it names what is closest to working.
 */
export const REFUSAL_STAGE: Record<TPipelineExchangeRefusal, number> = {
  malformed_token: 0,
  unsupported_algorithm: 0,
  unknown_issuer: 0,
  not_trusted_by_organization: 0,
  verification_failed: 1,
  unknown_signing_key: 1,
  bad_signature: 1,
  missing_claim: 2,
  expired: 2,
  not_yet_valid: 2,
  audience_mismatch: 3,
  subject_mismatch: 4,
  claim_mismatch: 5,
};

export function pipelineExchangeRefusal(reason: TPipelineExchangeRefusal, detail?: string): AppError {
  const { message, hint } = PIPELINE_EXCHANGE_REFUSALS[reason];
  return new AppError('invalid_pipeline_token', { message: detail ? `${message} ${detail}` : message, hint });
}

export function issuerUnavailable(retryAfterSeconds: number): AppError {
  return new AppError('issuer_unavailable', {
    message: 'The signing keys (JWKS) of the token\'s issuer could not be fetched.',
    retryAfterSeconds,
  });
}
