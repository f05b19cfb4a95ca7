import type { TBaseEnv, TBuildPlane } from '@palisade/platform';
import { jwksRoute } from './routes/auth/jwks.route';
import { meRoute } from './routes/auth/me.route';
import { makeDevicePageLookup } from './routes/auth/device-page.lookup';
import { devicePageRoute, devicePageScriptRoute, devicePageStyleRoute } from './routes/auth/device-page.route';
import { getCurrentOrganizationRoute } from './routes/system/get-current-organization.route';
import { openApiRoute } from './routes/system/openapi.route';
import { listMembersRoute } from './routes/members/list-members.route';
import { makeScanRepo, makeScanRequestRepo, scanRequestProgress } from '@palisade/db';
import { getScanRoute } from './routes/scans/get-scan.route';
import { getScanRequestTimelineRoute } from './routes/scan-requests/get-scan-request-timeline.route';
import { makeFindingRepo } from '@palisade/db';
import { listFindingsRoute } from './routes/findings/list-findings.route';
import { getFindingDetailRoute } from './routes/findings/get-finding-detail.route';
import { listTrustPoliciesRoute } from './routes/ci/list-trust-policies.route';
import { listServiceAccountsRoute } from './routes/service-accounts/list-service-accounts.route';

/** The read plane: every GET, served from the read replica when one is configured. */
export const buildReadApi: TBuildPlane<TBaseEnv> = async ({ env, db, repos, redis, auth }) => ({
  routes: [
    jwksRoute({ signingKeys: auth.signingKeys }),
    meRoute({ users: repos.users, memberships: repos.memberships }),
    openApiRoute({ enabled: env.OPENAPI_ENABLED, publicBaseUrl: env.PUBLIC_BASE_URL }),
    getCurrentOrganizationRoute({ organizations: repos.organizations }),
    listMembersRoute({ memberships: repos.memberships }),
    // device-flow verification page (RFC 8628), reading the grant store the write plane owns
    devicePageRoute({ lookup: makeDevicePageLookup({ redis, prefix: env.REDIS_PREFIX }) }),
    devicePageScriptRoute(),
    devicePageStyleRoute(),
    // scans (issue 4), from the replica
    getScanRoute({ scans: makeScanRepo(db.replica) }),
    getScanRequestTimelineRoute({
      scanRequests: makeScanRequestRepo(db.replica),
      progress: (orgId, scanRequestId) => scanRequestProgress(db.replica, orgId, scanRequestId),
    }),
    // findings, minimal read (issue 4), from the replica
    listFindingsRoute({ findings: makeFindingRepo(db.replica) }),
    getFindingDetailRoute({ findings: makeFindingRepo(db.replica) }),
    // pipeline trust policies and service accounts (issue 3)
    listTrustPoliciesRoute({ trustPolicies: repos.trustPolicies }),
    listServiceAccountsRoute({ serviceAccounts: repos.serviceAccounts }),
  ],
});
