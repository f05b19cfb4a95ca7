import { defineRoute } from '../../route';
import { ZCreateTrustPolicyBody, ZTrustPolicy } from './trust-policy.schemas';

export const createTrustPolicyContract = defineRoute({
  operationId: 'createPipelineTrustPolicy',
  method: 'POST',
  path: '/api/v2/ci/pipeline/trust-policies',
  plane: 'write',
  auth: 'tenant',
  permission: 'pipeline_trust:manage',
  summary: 'Trust a CI OIDC issuer: its tokens matching audience, subject pattern and claims exchange for pipeline tokens of this organization',
  tags: ['ci', 'auth'],
  request: { body: ZCreateTrustPolicyBody },
  responses: { 201: { description: 'The trust policy', schema: ZTrustPolicy } },
});
