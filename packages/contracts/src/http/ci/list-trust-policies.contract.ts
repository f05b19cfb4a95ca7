import { z } from 'zod';
import { defineRoute } from '../../route';
import { ZTrustPolicy } from './trust-policy.schemas';

export const ZListTrustPoliciesQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.string().min(1).max(512).optional() })
  .strict();

export const ZListTrustPoliciesResponse = z.object({ items: z.array(ZTrustPolicy), next_cursor: z.string().optional() }).strict();

export const listTrustPoliciesContract = defineRoute({
  operationId: 'listPipelineTrustPolicies',
  method: 'GET',
  path: '/api/v2/ci/pipeline/trust-policies',
  plane: 'read',
  auth: 'tenant',
  permission: 'pipeline_trust:manage',
  summary: "The organization's pipeline trust policies, newest first",
  tags: ['ci', 'auth'],
  request: { query: ZListTrustPoliciesQuery },
  responses: { 200: { description: 'A page of trust policies; next_cursor only when more rows exist', schema: ZListTrustPoliciesResponse } },
});
