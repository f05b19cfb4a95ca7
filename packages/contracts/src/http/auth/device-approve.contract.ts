import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZDeviceApproveBody = z
  .object({
    /** As shown on the device; case, dashes and spaces do not matter. */
    user_code: z.string().min(1).max(32),
    decision: z.enum(['approve', 'deny']).default('approve'),
  })
  .strict();
export type TDeviceApproveBody = z.infer<typeof ZDeviceApproveBody>;

export const ZDeviceApproveResponse = z
  .object({
    user_code: z.string(),
    status: z.enum(['approved', 'denied']),
    client_id: z.string(),
    client_name: z.string(),
    scopes: z.array(z.string()),
  })
  .strict();
export type TDeviceApproveResponse = z.infer<typeof ZDeviceApproveResponse>;

export const deviceApproveContract = defineRoute({
  operationId: 'decideDeviceAuthorization',
  method: 'POST',
  path: '/api/v2/auth/device/approve',
  plane: 'write',
  auth: 'principal',
  summary:
    'A signed-in person approves (or denies) the device showing this user code; the device then receives tokens acting as that person. ' +
    'Unknown or expired code: 404 invalid_user_code; already decided: 409; too many wrong codes: 429.',
  tags: ['auth'],
  request: { body: ZDeviceApproveBody },
  responses: { 200: { description: 'Decision recorded', schema: ZDeviceApproveResponse } },
});
