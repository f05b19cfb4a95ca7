// Pipeline trust policies (see schema.prisma). Tenant-first like every repository, except the
// one lookup the OIDC exchange needs before it knows the tenant: which organizations trust an issuer.
import type { PipelineTrustPolicy, Prisma, PrismaClient } from '../generated/prisma/client';
import { appendAuditEntry } from './audit-log.repo';

export type TNewTrustPolicy = {
  name: string;
  issuer: string;
  audience: string;
  jwksUri: string;
  subjectPattern: string;
  claims: Record<string, string | number | boolean>;
  scopes: string[];
};

/** Who made the change, for the audit row written in the same transaction. */
export type TAuditActor = { actorType: string; actorId: string | null; correlationId: string | null };

// The exchange tries each of an organization's policies for the issuer; more than this is a misuse.
const MAX_POLICIES_PER_ISSUER = 100;
const TX_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

export function makeTrustPolicyRepo(client: PrismaClient) {
  return {
    create(orgId: string, input: TNewTrustPolicy, actor: TAuditActor): Promise<PipelineTrustPolicy> {
      return client.$transaction(async (tx) => {
        const policy = await tx.pipelineTrustPolicy.create({
          data: { ...input, orgId, claims: input.claims as Prisma.InputJsonValue, createdByType: actor.actorType, createdById: actor.actorId },
        });
        await appendAuditEntry(tx, orgId, {
          ...actor,
          action: 'pipeline_trust_policy.created',
          targetType: 'pipeline_trust_policy',
          targetId: policy.id,
          data: { name: input.name, issuer: input.issuer, audience: input.audience, subject_pattern: input.subjectPattern, claims: input.claims, scopes: input.scopes },
        });
        return policy;
      }, TX_OPTIONS);
    },

    /** Newest first; `beforeId` is the keyset position (ids are UUIDv7). */
    list(orgId: string, page: { beforeId?: string; limit: number }): Promise<PipelineTrustPolicy[]> {
      return client.pipelineTrustPolicy.findMany({
        where: { orgId, ...(page.beforeId ? { id: { lt: page.beforeId } } : {}) },
        orderBy: { id: 'desc' },
        take: page.limit,
      });
    },

    byId(orgId: string, id: string): Promise<PipelineTrustPolicy | null> {
      return client.pipelineTrustPolicy.findFirst({ where: { orgId, id } });
    },

    /** False when no such policy exists in this organization. */
    remove(orgId: string, id: string, actor: TAuditActor): Promise<boolean> {
      return client.$transaction(async (tx) => {
        const existing = await tx.pipelineTrustPolicy.findFirst({ where: { orgId, id } });
        if (!existing) return false;
        await tx.pipelineTrustPolicy.deleteMany({ where: { orgId, id } });
        await appendAuditEntry(tx, orgId, {
          ...actor,
          action: 'pipeline_trust_policy.deleted',
          targetType: 'pipeline_trust_policy',
          targetId: id,
          data: { name: existing.name, issuer: existing.issuer },
        });
        return true;
      }, TX_OPTIONS);
    },

    /**
     * Organizations that trust this issuer, at most `limit` of them: the exchange learns the tenant
     * from the policies, never from the caller, and needs to know only whether there is exactly one.
     * Across organizations on purpose (one issuer, e.g. GitHub Actions, serves every customer).
     */
    async orgsTrustingIssuer(issuer: string, limit = 2): Promise<string[]> {
      const rows = await client.pipelineTrustPolicy.findMany({ where: { issuer }, distinct: ['orgId'], select: { orgId: true }, take: limit });
      return rows.map((row) => row.orgId);
    },

    /** The organization's policies for an issuer, oldest first. */
    byIssuer(orgId: string, issuer: string): Promise<PipelineTrustPolicy[]> {
      return client.pipelineTrustPolicy.findMany({ where: { orgId, issuer }, orderBy: { id: 'asc' }, take: MAX_POLICIES_PER_ISSUER });
    },
  };
}

export type TrustPolicyRepo = ReturnType<typeof makeTrustPolicyRepo>;
