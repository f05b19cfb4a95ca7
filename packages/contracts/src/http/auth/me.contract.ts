import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZMeResponse = z
  .object({
    principal: z
      .object({
        kind: z.enum(['human', 'pipeline', 'service_account', 'scanner']),
        id: z.uuid(),
        email: z.string().nullable(),
        display_name: z.string().nullable(),
        is_platform_admin: z.boolean(),
      })
      .strict(),
    memberships: z.array(
      z.object({ organization_id: z.uuid(), organization_name: z.string(), organization_slug: z.string(), role: z.string() }).strict(),
    ),
  })
  .strict();
export type TMeResponse = z.infer<typeof ZMeResponse>;

export const meContract = defineRoute({
  operationId: 'getMe',
  method: 'GET',
  path: '/api/v2/me',
  plane: 'read',
  auth: 'principal',
  summary: 'Who the token belongs to and the organizations it can act in',
  tags: ['auth'],
  request: {},
  responses: { 200: { description: 'The calling principal', schema: ZMeResponse } },
});
