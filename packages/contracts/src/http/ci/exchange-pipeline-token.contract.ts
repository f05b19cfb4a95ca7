import { z } from 'zod';
import { ZUuid } from '../../common/primitives';
import { ZErrorBody } from '../../errors';
import { defineRoute } from '../../route';

export const ZExchangePipelineTokenBody = z
  .object({
    token: z.string().min(1).max(16_384).describe("The CI provider's OIDC ID token for this job"),
    organization_id: ZUuid.optional().describe('Needed only when several organizations trust the same issuer'),
  })
  .strict();

export const ZPipelineTokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    organization_id: ZUuid,
    scopes: z.array(z.string()),
  })
  .strict();
export type TPipelineTokenResponse = z.infer<typeof ZPipelineTokenResponse>;

/**
 * Public: the OIDC token is the credential. 401 `invalid_pipeline_token` with a reason-specific
 * message and hint for any token no policy accepts; 503 `issuer_unavailable` (retryable, with
 * Retry-After) when the issuer's JWKS cannot be fetched.
 */
export const exchangePipelineTokenContract = defineRoute({
  operationId: 'exchangePipelineOidcToken',
  method: 'POST',
  path: '/api/v2/ci/pipeline/token-oidc',
  plane: 'write',
  auth: 'public',
  summary: "Exchange a CI provider's OIDC token for a 15-minute pipeline token carrying the matching trust policy's scopes",
  tags: ['ci', 'auth'],
  request: { body: ZExchangePipelineTokenBody },
  responses: {
    200: { description: 'A pipeline access token', schema: ZPipelineTokenResponse },
    401: { description: 'invalid_pipeline_token: no trust policy accepts the token (the message says why, the hint what to do)', schema: ZErrorBody },
    503: { description: "issuer_unavailable: the issuer's JWKS could not be fetched; retryable, with Retry-After", schema: ZErrorBody },
  },
});
