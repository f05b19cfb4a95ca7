import type { TDbClient } from './prisma-types';
import { makeAuditLogRepo } from './repos/audit-log.repo';
import { makeMembershipRepo } from './repos/membership.repo';
import { makeOrganizationRepo } from './repos/organization.repo';
import { makeOrgQuotaRepo } from './repos/org-quota.repo';
import { makeRefreshTokenRepo } from './repos/refresh-token.repo';
import { makeSigningKeyRepo } from './repos/signing-key.repo';
import { makeUserRepo } from './repos/user.repo';
import type { PrismaClient } from './generated/prisma/client';
import { makeTrustPolicyRepo } from './repos/trust-policy.repo';
import { makeServiceAccountRepo } from './repos/service-account.repo';

/**
 * Every repository over one client, built once per process. A plane passes the replica for
 * reads it can serve slightly stale, the primary for everything else.
 */
export function makeRepositories(client: PrismaClient) {
  const db: TDbClient = client;
  return {
    organizations: makeOrganizationRepo(db),
    users: makeUserRepo(db),
    memberships: makeMembershipRepo(db),
    signingKeys: makeSigningKeyRepo(db),
    refreshTokens: makeRefreshTokenRepo(db),
    audit: makeAuditLogRepo(client),
    orgQuotas: makeOrgQuotaRepo(db),
    trustPolicies: makeTrustPolicyRepo(client),
    serviceAccounts: makeServiceAccountRepo(client),
  };
}
export type TRepositories = ReturnType<typeof makeRepositories>;
