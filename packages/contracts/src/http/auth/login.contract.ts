import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZLoginBody = z
  .object({
    email: z.email().max(320),
    password: z.string().min(1).max(1024),
  })
  .strict();

export const ZAccessTokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
  })
  .strict();
export type TAccessTokenResponse = z.infer<typeof ZAccessTokenResponse>;

/** The refresh token travels only in this cookie, scoped to the auth routes. */
export const REFRESH_COOKIE = { name: 'palisade_refresh', path: '/api/v2/auth' } as const;

export const loginContract = defineRoute({
  operationId: 'login',
  method: 'POST',
  path: '/api/v2/auth/login',
  plane: 'write',
  auth: 'public',
  summary: 'Sign in with email and password; returns an access token and sets the refresh cookie',
  tags: ['auth'],
  request: { body: ZLoginBody },
  responses: { 200: { description: 'Signed in', schema: ZAccessTokenResponse } },
});
