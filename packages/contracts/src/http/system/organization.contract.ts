import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZOrganization = z
  .object({ organization_id: z.uuid(), name: z.string(), slug: z.string(), role: z.string().nullable(), created_at: z.string() })
  .strict();

/** The tenant the call acts in, as resolved from the token and X-Organization-ID. */
export const getCurrentOrganizationContract = defineRoute({
  operationId: 'getCurrentOrganization',
  method: 'GET',
  path: '/api/v2/organization',
  plane: 'read',
  auth: 'tenant',
  permission: 'org:read',
  summary: 'The organization named by X-Organization-ID, with the caller’s role in it',
  tags: ['organizations'],
  request: {},
  responses: { 200: { description: 'The organization', schema: ZOrganization } },
});
