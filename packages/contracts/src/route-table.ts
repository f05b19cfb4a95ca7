import type { TPlane, TRouteContract } from './route';
import { postToolReportContract } from './http/callbacks/post-tool-report.contract';
import { postToolOutcomeContract } from './http/callbacks/post-tool-outcome.contract';
import { listFindingsContract } from './http/findings/list-findings.contract';
import { getFindingDetailContract } from './http/findings/get-finding-detail.contract';
import { deviceApproveContract } from './http/auth/device-approve.contract';
import { deviceCodeContract } from './http/auth/device-code.contract';
import { devicePageContract, devicePageScriptContract, devicePageStyleContract } from './http/auth/device-page.contract';
import { deviceTokenContract } from './http/auth/device-token.contract';
import { jwksContract } from './http/auth/jwks.contract';
import { loginContract } from './http/auth/login.contract';
import { logoutContract } from './http/auth/logout.contract';
import { meContract } from './http/auth/me.contract';
import { refreshContract } from './http/auth/refresh.contract';
import { openApiContract } from './http/system/openapi.contract';
import { getCurrentOrganizationContract } from './http/system/organization.contract';
import { addMemberContract, changeMemberRoleContract, listMembersContract, removeMemberContract } from './http/members/members.contract';
import { adminListOrganizationsContract, adminSetQuotaContract } from './http/admin/organizations.contract';
import { listSigningKeysContract, rotateSigningKeyContract } from './http/admin/signing-keys.contract';
import { createScanContract } from './http/scans/create-scan.contract';
import { getScanContract } from './http/scans/get-scan.contract';
import { getScanRequestTimelineContract } from './http/scans/get-scan-request-timeline.contract';
import { createTrustPolicyContract } from './http/ci/create-trust-policy.contract';
import { listTrustPoliciesContract } from './http/ci/list-trust-policies.contract';
import { deleteTrustPolicyContract } from './http/ci/delete-trust-policy.contract';
import { exchangePipelineTokenContract } from './http/ci/exchange-pipeline-token.contract';
import { createServiceAccountContract } from './http/service-accounts/create-service-account.contract';
import { listServiceAccountsContract } from './http/service-accounts/list-service-accounts.contract';
import { revokeServiceAccountContract } from './http/service-accounts/revoke-service-account.contract';

/**
 * Every route the service serves, in one table. The edge config (infra/nginx), each plane's
 * mounted routes and the OpenAPI document are all generated from it, so a route is added here
 * and nowhere else. Each row's schemas live beside it in http/<area>/<name>.contract.ts.
 */
export const ROUTE_TABLE: readonly TRouteContract[] = [
  // auth and sessions
  loginContract,
  refreshContract,
  logoutContract,
  jwksContract,
  meContract,
  // system
  openApiContract,
  getCurrentOrganizationContract,
  // members and roles
  listMembersContract,
  addMemberContract,
  changeMemberRoleContract,
  removeMemberContract,
  // platform administration (admin plane)
  listSigningKeysContract,
  rotateSigningKeyContract,
  adminListOrganizationsContract,
  adminSetQuotaContract,
  // scans
  createScanContract,
  getScanContract,
  getScanRequestTimelineContract,
  // device authorization grant (RFC 8628) and its verification page
  deviceCodeContract,
  deviceApproveContract,
  deviceTokenContract,
  devicePageContract,
  devicePageScriptContract,
  devicePageStyleContract,
  // scanner callbacks (callback plane) and the minimal findings read
  postToolReportContract,
  postToolOutcomeContract,
  listFindingsContract,
  getFindingDetailContract,
  // pipeline OIDC exchange, trust policies and service accounts
  createTrustPolicyContract,
  listTrustPoliciesContract,
  deleteTrustPolicyContract,
  exchangePipelineTokenContract,
  createServiceAccountContract,
  listServiceAccountsContract,
  revokeServiceAccountContract,
];

export function routesForPlane(plane: TPlane): TRouteContract[] {
  return ROUTE_TABLE.filter((route) => route.plane === plane);
}
