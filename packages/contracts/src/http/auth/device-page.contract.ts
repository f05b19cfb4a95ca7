import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZDevicePageQuery = z
  .object({
    /** Pre-fills the code from verification_uri_complete. */
    user_code: z.string().max(32).optional(),
  })
  .strict();

export const devicePageContract = defineRoute({
  operationId: 'getDeviceVerificationPage',
  method: 'GET',
  path: '/api/v2/auth/device',
  plane: 'read',
  auth: 'public',
  summary: 'The device-flow verification page (HTML): sign in, confirm the code, see which client asks for what, approve or deny',
  tags: ['auth'],
  request: { query: ZDevicePageQuery },
  responses: { 200: { description: 'The page', contentType: 'text/html', schema: z.string() } },
});

export const devicePageScriptContract = defineRoute({
  operationId: 'getDeviceVerificationScript',
  method: 'GET',
  path: '/api/v2/auth/device/app.js',
  plane: 'read',
  auth: 'public',
  summary: 'The verification page’s script, served apart so the page’s Content-Security-Policy allows no inline script',
  tags: ['auth'],
  request: {},
  responses: { 200: { description: 'JavaScript', contentType: 'text/javascript', schema: z.string() } },
});

export const devicePageStyleContract = defineRoute({
  operationId: 'getDeviceVerificationStyle',
  method: 'GET',
  path: '/api/v2/auth/device/app.css',
  plane: 'read',
  auth: 'public',
  summary: 'The verification page’s stylesheet',
  tags: ['auth'],
  request: {},
  responses: { 200: { description: 'CSS', contentType: 'text/css', schema: z.string() } },
});
