import { z } from 'zod';
import { defineRoute } from '../../route';
import { ZServiceAccount } from './service-account.schemas';

export const ZListServiceAccountsQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.string().min(1).max(512).optional() })
  .strict();

export const ZListServiceAccountsResponse = z.object({ items: z.array(ZServiceAccount), next_cursor: z.string().optional() }).strict();

export const listServiceAccountsContract = defineRoute({
  operationId: 'listServiceAccounts',
  method: 'GET',
  path: '/api/v2/service-accounts',
  plane: 'read',
  auth: 'tenant',
  permission: 'service_accounts:manage',
  summary: 'Active service accounts of the organization, newest first (tokens are never shown)',
  tags: ['service-accounts', 'auth'],
  request: { query: ZListServiceAccountsQuery },
  responses: { 200: { description: 'A page of service accounts; next_cursor only when more rows exist', schema: ZListServiceAccountsResponse } },
});
