import { defineRoute } from '../../route';
import { ZAccessTokenResponse } from './login.contract';

export const refreshContract = defineRoute({
  operationId: 'refreshSession',
  method: 'POST',
  path: '/api/v2/auth/refresh',
  plane: 'write',
  auth: 'public',
  summary: 'Rotate the refresh cookie and return a new access token; a reused refresh token revokes its whole family',
  tags: ['auth'],
  request: {},
  responses: { 200: { description: 'Rotated', schema: ZAccessTokenResponse } },
});
