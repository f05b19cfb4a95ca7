import { z } from 'zod';
import { boundedRecord, ZTimestamp, ZUuid } from '../../common/primitives';

/** Extra claims a policy may require (exact matches beside the subject pattern). */
export const MAX_POLICY_CLAIMS = 16;

const ZScopeName = z.string().min(1).max(64);
const ZClaimValue = z.union([z.string().max(256), z.number(), z.boolean()]);

/**
 * A CI issuer the organization trusts. URL rules (https; plain http for loopback test issuers
 * only outside production), the subject-pattern glob and the grantable scopes are checked by
 * the domain and refused as 422 naming the field.
 */
export const ZCreateTrustPolicyBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    issuer: z.string().min(1).max(2048).describe('Exactly the `iss` of the tokens, e.g. https://token.actions.githubusercontent.com'),
    audience: z.string().min(1).max(512).describe('The `aud` the CI job requests its token for'),
    jwks_uri: z.string().min(1).max(2048).describe("The issuer's JSON Web Key Set"),
    subject_pattern: z
      .string()
      .min(1)
      .max(256)
      .describe('Glob over `sub`: * = any run without ":", ** = anything, ? = one character; e.g. repo:acme/*:ref:refs/heads/main'),
    claims: boundedRecord(z.string().min(1).max(64), ZClaimValue, MAX_POLICY_CLAIMS).optional().describe('Claims that must equal these values exactly'),
    scopes: z
      .array(ZScopeName)
      .max(16)
      .optional()
      .describe('What the pipeline token may do (default scans:create, gate:evaluate); at most scans:create, gate:evaluate, scans:read, findings:read, org:read'),
  })
  .strict();
export type TCreateTrustPolicyBody = z.infer<typeof ZCreateTrustPolicyBody>;

export const ZTrustPolicy = z
  .object({
    trust_policy_id: ZUuid,
    name: z.string(),
    issuer: z.string(),
    audience: z.string(),
    jwks_uri: z.string(),
    subject_pattern: z.string(),
    claims: z.record(z.string(), ZClaimValue),
    scopes: z.array(z.string()),
    created_at: ZTimestamp,
  })
  .strict();
export type TTrustPolicy = z.infer<typeof ZTrustPolicy>;

export const ZTrustPolicyIdParams = z.object({ trust_policy_id: ZUuid }).strict();

/** A stored policy as the API shows it (both planes serialize through this). */
export function toTrustPolicy(row: {
  id: string;
  name: string;
  issuer: string;
  audience: string;
  jwksUri: string;
  subjectPattern: string;
  claims: unknown;
  scopes: string[];
  createdAt: Date;
}): TTrustPolicy {
  return {
    trust_policy_id: row.id,
    name: row.name,
    issuer: row.issuer,
    audience: row.audience,
    jwks_uri: row.jwksUri,
    subject_pattern: row.subjectPattern,
    claims: (row.claims ?? {}) as TTrustPolicy['claims'],
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
  };
}
