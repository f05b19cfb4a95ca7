import { z } from 'zod';
import { defineRoute } from '../../route';

/** RFC 8628 section 3.4. grant_type is checked by the handler, so a wrong one answers RFC 6749's unsupported_grant_type. */
export const ZDeviceTokenBody = z
  .object({
    grant_type: z.string().min(1).max(128),
    device_code: z.string().min(1).max(256),
    client_id: z.string().min(1).max(128),
  })
  .strict();
export type TDeviceTokenBody = z.infer<typeof ZDeviceTokenBody>;

/** RFC 6749 section 5.1; refresh_token only when offline_access was granted. */
export const ZDeviceTokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().optional(),
  })
  .strict();
export type TDeviceTokenResponse = z.infer<typeof ZDeviceTokenResponse>;

export const deviceTokenContract = defineRoute({
  operationId: 'redeemDeviceCode',
  method: 'POST',
  path: '/api/v2/auth/device/token',
  plane: 'write',
  auth: 'public',
  summary:
    'Device access token request (RFC 8628): polls until the user decides. Refusals are HTTP 400 with the RFC error in `error` ' +
    '(authorization_pending, slow_down, access_denied, expired_token, invalid_grant, unsupported_grant_type; invalid_client is 401) ' +
    'beside the structured error fields. An approved code yields its tokens exactly once.',
  tags: ['auth'],
  request: { body: ZDeviceTokenBody, acceptsForm: true },
  responses: { 200: { description: 'Tokens for the approving user', schema: ZDeviceTokenResponse } },
});
