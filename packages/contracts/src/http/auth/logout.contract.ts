import { defineRoute } from '../../route';

export const logoutContract = defineRoute({
  operationId: 'logout',
  method: 'POST',
  path: '/api/v2/auth/logout',
  plane: 'write',
  auth: 'public',
  summary: 'End the session of the refresh cookie and clear it',
  tags: ['auth'],
  request: {},
  responses: { 204: { description: 'Signed out' } },
});
