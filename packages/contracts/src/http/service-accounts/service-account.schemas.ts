import { z } from 'zod';
import { ZTimestamp, ZUuid } from '../../common/primitives';

export const ZCreateServiceAccountBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    scopes: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(16)
      .describe('Permissions of the account; at most org:read, scans:read, scans:create, findings:read, gate:evaluate, integrations:read, integrations:manage, audit:read'),
  })
  .strict();

export const ZServiceAccount = z
  .object({
    service_account_id: ZUuid,
    name: z.string(),
    scopes: z.array(z.string()),
    token_hint: z.string().describe('The first characters of the token, to tell tokens apart'),
    created_at: ZTimestamp,
  })
  .strict();
export type TServiceAccount = z.infer<typeof ZServiceAccount>;

/** The creation answer is the only one that carries the token. */
export const ZCreatedServiceAccount = ZServiceAccount.extend({
  token: z.string().describe('Shown once: send as "Authorization: Bearer psa_..."; only its hash is stored'),
}).strict();

export const ZServiceAccountIdParams = z.object({ service_account_id: ZUuid }).strict();

/** A stored account as the API shows it: never the token, only its hint. */
export function toServiceAccount(row: { id: string; name: string; scopes: string[]; tokenHint: string; createdAt: Date }): TServiceAccount {
  return { service_account_id: row.id, name: row.name, scopes: row.scopes, token_hint: row.tokenHint, created_at: row.createdAt.toISOString() };
}
