import { defineRoute } from '../../route';
import { ZCreatedServiceAccount, ZCreateServiceAccountBody } from './service-account.schemas';

export const createServiceAccountContract = defineRoute({
  operationId: 'createServiceAccount',
  method: 'POST',
  path: '/api/v2/service-accounts',
  plane: 'write',
  auth: 'tenant',
  permission: 'service_accounts:manage',
  summary: 'Create a service account; its token is in this response only',
  tags: ['service-accounts', 'auth'],
  request: { body: ZCreateServiceAccountBody },
  responses: { 201: { description: 'The service account and its token (shown once)', schema: ZCreatedServiceAccount } },
});
