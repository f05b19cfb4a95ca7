// Service accounts (see schema.prisma). Tenant-first, except the token lookup: a presented
// token names its own organization, so authentication finds it by hash alone.
import type { PrismaClient, ServiceAccount } from '../generated/prisma/client';
import { appendAuditEntry } from './audit-log.repo';
import type { TAuditActor } from './trust-policy.repo';

export type TNewServiceAccount = {
  name: string;
  scopes: string[];
  /** sha256 (hex) of the token; the token itself is never stored. */
  tokenHash: string;
  tokenHint: string;
};

const TX_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

export function makeServiceAccountRepo(client: PrismaClient) {
  return {
    create(orgId: string, input: TNewServiceAccount, actor: TAuditActor): Promise<ServiceAccount> {
      return client.$transaction(async (tx) => {
        const account = await tx.serviceAccount.create({
          data: { ...input, orgId, createdByType: actor.actorType, createdById: actor.actorId },
        });
        await appendAuditEntry(tx, orgId, {
          ...actor,
          action: 'service_account.created',
          targetType: 'service_account',
          targetId: account.id,
          data: { name: input.name, scopes: input.scopes, token_hint: input.tokenHint },
        });
        return account;
      }, TX_OPTIONS);
    },

    /** Active (unrevoked) accounts, newest first; `beforeId` is the keyset position. */
    listActive(orgId: string, page: { beforeId?: string; limit: number }): Promise<ServiceAccount[]> {
      return client.serviceAccount.findMany({
        where: { orgId, revokedAt: null, ...(page.beforeId ? { id: { lt: page.beforeId } } : {}) },
        orderBy: { id: 'desc' },
        take: page.limit,
      });
    },

    /** False when no active account of this organization has the id. */
    revoke(orgId: string, id: string, actor: TAuditActor, at: Date = new Date()): Promise<boolean> {
      return client.$transaction(async (tx) => {
        const { count } = await tx.serviceAccount.updateMany({ where: { orgId, id, revokedAt: null }, data: { revokedAt: at } });
        if (count === 0) return false;
        await appendAuditEntry(tx, orgId, { ...actor, action: 'service_account.revoked', targetType: 'service_account', targetId: id });
        return true;
      }, TX_OPTIONS);
    },

    /** The active account a presented token belongs to, in whichever organization. */
    async activeByTokenHash(tokenHash: string): Promise<{ id: string; orgId: string; scopes: string[] } | null> {
      const account = await client.serviceAccount.findFirst({
        where: { tokenHash, revokedAt: null },
        select: { id: true, orgId: true, scopes: true },
      });
      return account;
    },
  };
}

export type ServiceAccountRepo = ReturnType<typeof makeServiceAccountRepo>;
