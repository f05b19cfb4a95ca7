import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZJwk = z
  .object({ kty: z.literal('RSA'), kid: z.string(), use: z.literal('sig'), alg: z.literal('RS256'), n: z.string(), e: z.string() })
  .strict();
export const ZJwks = z.object({ keys: z.array(ZJwk) }).strict();
export type TJwks = z.infer<typeof ZJwks>;

export const jwksContract = defineRoute({
  operationId: 'getJwks',
  method: 'GET',
  path: '/api/v2/auth/jwks.json',
  plane: 'read',
  auth: 'public',
  summary: 'Public keys that verify access tokens (every key still inside its overlap window)',
  tags: ['auth'],
  request: {},
  responses: { 200: { description: 'JSON Web Key Set', schema: ZJwks } },
});
