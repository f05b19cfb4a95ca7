import { z } from 'zod';
import { defineRoute } from '../../route';

export const ZSigningKeyInfo = z
  .object({
    kid: z.string(),
    algorithm: z.string(),
    status: z.enum(['active', 'retiring', 'retired']),
    created_at: z.string(),
    retire_after: z.string().nullable(),
  })
  .strict();

export const listSigningKeysContract = defineRoute({
  operationId: 'adminListSigningKeys',
  method: 'GET',
  path: '/api/v2/admin/signing-keys',
  plane: 'admin',
  auth: 'platform_admin',
  summary: 'Token signing keys and their state (public information only)',
  tags: ['admin'],
  request: {},
  responses: { 200: { description: 'Keys, newest first', schema: z.object({ items: z.array(ZSigningKeyInfo) }).strict() } },
});

export const rotateSigningKeyContract = defineRoute({
  operationId: 'adminRotateSigningKey',
  method: 'POST',
  path: '/api/v2/admin/signing-keys/rotate',
  plane: 'admin',
  auth: 'platform_admin',
  summary: 'Start signing with a new key; the previous one keeps verifying until its tokens have expired',
  tags: ['admin'],
  request: { body: z.object({}).strict() },
  responses: {
    201: {
      description: 'Rotated',
      schema: z.object({ active: ZSigningKeyInfo, retiring: z.array(ZSigningKeyInfo) }).strict(),
    },
  },
});
