import type { OrgQuota } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TOrgQuotaLimits = { requestsPerMinute: number; burst: number };

// One row per organization whose limits an administrator set; the others use the default.
export function makeOrgQuotaRepo(db: TDbClient) {
  return {
    byOrg(orgId: string): Promise<OrgQuota | null> {
      return db.orgQuota.findUnique({ where: { orgId } });
    },
    set(orgId: string, limits: TOrgQuotaLimits): Promise<OrgQuota> {
      return db.orgQuota.upsert({
        where: { orgId },
        create: { orgId, requestsPerMinute: limits.requestsPerMinute, burst: limits.burst },
        update: { requestsPerMinute: limits.requestsPerMinute, burst: limits.burst },
      });
    },
  };
}

export type OrgQuotaRepo = ReturnType<typeof makeOrgQuotaRepo>;
