import { defineRoute } from '../../route';
import { ZServiceAccountIdParams } from './service-account.schemas';

export const revokeServiceAccountContract = defineRoute({
  operationId: 'revokeServiceAccount',
  method: 'DELETE',
  path: '/api/v2/service-accounts/:service_account_id',
  plane: 'write',
  auth: 'tenant',
  permission: 'service_accounts:manage',
  summary: 'Revoke a service account; its token stops working within seconds on every plane',
  tags: ['service-accounts', 'auth'],
  request: { params: ZServiceAccountIdParams },
  responses: { 204: { description: 'Revoked' } },
});
