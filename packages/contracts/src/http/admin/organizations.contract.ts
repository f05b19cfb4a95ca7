import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZQuota = z
  .object({
    requests_per_minute: z.number().int().min(1).max(1_000_000),
    burst: z.number().int().min(0).max(1_000_000),
  })
  .strict();

export const ZAdminOrganization = z
  .object({
    organization_id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    created_at: z.string(),
    quota: ZQuota.extend({ source: z.enum(['default', 'custom']) }).strict(),
  })
  .strict();

export const ZOrgIdParams = z.object({ org_id: z.uuid() }).strict();

export const adminListOrganizationsContract = defineRoute({
  operationId: 'adminListOrganizations',
  method: 'GET',
  path: '/api/v2/admin/organizations',
  plane: 'admin',
  auth: 'platform_admin',
  summary: 'Every organization with its quota (cross-tenant administration)',
  tags: ['admin'],
  request: {
    query: z
      .object({ limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.string().max(512).optional() })
      .strict(),
  },
  responses: {
    200: {
      description: 'A page of organizations',
      schema: z.object({ items: z.array(ZAdminOrganization), next_cursor: z.string().optional() }).strict(),
    },
  },
});

export const adminSetQuotaContract = defineRoute({
  operationId: 'adminSetOrganizationQuota',
  method: 'PUT',
  path: '/api/v2/admin/organizations/:org_id/quota',
  plane: 'admin',
  auth: 'platform_admin',
  summary: 'Set an organization’s budget for mutating calls on the write plane',
  tags: ['admin'],
  request: { params: ZOrgIdParams, body: ZQuota },
  responses: { 200: { description: 'The organization with its new quota', schema: ZAdminOrganization } },
});
