import { defineRoute } from '../../route';
import { ZTrustPolicyIdParams } from './trust-policy.schemas';

export const deleteTrustPolicyContract = defineRoute({
  operationId: 'deletePipelineTrustPolicy',
  method: 'DELETE',
  path: '/api/v2/ci/pipeline/trust-policies/:trust_policy_id',
  plane: 'write',
  auth: 'tenant',
  permission: 'pipeline_trust:manage',
  summary: 'Stop trusting an issuer under this policy; pipeline tokens already issued expire on their own (15 minutes at most)',
  tags: ['ci', 'auth'],
  request: { params: ZTrustPolicyIdParams },
  responses: { 204: { description: 'Deleted' } },
});
