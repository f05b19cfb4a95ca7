import { z } from 'zod';
import { defineRoute } from '../../route';

/** RFC 8628 section 3.1. Public clients send only their id (no secret). */
export const ZDeviceCodeBody = z
  .object({
    client_id: z.string().min(1).max(128),
    /** Space-separated scopes (RFC 6749 section 3.3); the client's defaults when absent. */
    scope: z.string().max(512).optional(),
  })
  .strict();
export type TDeviceCodeBody = z.infer<typeof ZDeviceCodeBody>;

/** RFC 8628 section 3.2. */
export const ZDeviceCodeResponse = z
  .object({
    device_code: z.string(),
    user_code: z.string(),
    verification_uri: z.url(),
    verification_uri_complete: z.url(),
    expires_in: z.number().int(),
    interval: z.number().int(),
  })
  .strict();
export type TDeviceCodeResponse = z.infer<typeof ZDeviceCodeResponse>;

export const deviceCodeContract = defineRoute({
  operationId: 'startDeviceAuthorization',
  method: 'POST',
  path: '/api/v2/auth/device/code',
  plane: 'write',
  auth: 'public',
  summary:
    'Device authorization request (RFC 8628): returns a device code to poll with and a user code to approve on the verification page. ' +
    'Unknown client: 401 with error=invalid_client; disallowed scope: 400 with error=invalid_scope.',
  tags: ['auth'],
  request: { body: ZDeviceCodeBody, acceptsForm: true },
  responses: { 200: { description: 'Device authorization started', schema: ZDeviceCodeResponse } },
});
