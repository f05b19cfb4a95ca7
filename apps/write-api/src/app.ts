import type { TBaseEnv, TBuildPlane } from '@palisade/platform';
import { loginRoute } from './routes/auth/login.route';
import { logoutRoute } from './routes/auth/logout.route';
import { refreshRoute } from './routes/auth/refresh.route';
import { deviceApproveRoute } from './routes/auth/device-approve.route';
import { deviceCodeRoute } from './routes/auth/device-code.route';
import { deviceTokenRoute } from './routes/auth/device-token.route';
import { makeDeviceFlowService } from './services/device-flow.service';
import { makeDeviceGrantStore } from './services/device-flow.store';
import { makeLoginThrottle } from './services/login-throttle';
import { makeSessionService } from './services/session.service';
import { addMemberRoute, changeMemberRoleRoute, removeMemberRoute } from './routes/members/members.route';
import { makeMembersService } from './services/members.service';
import { makeQueueProducer } from '@palisade/queue';
import { createScanRoute } from './routes/scans/create-scan.route';
import { makeScanService } from './services/scan.service';
import { createTrustPolicyRoute } from './routes/ci/create-trust-policy.route';
import { deleteTrustPolicyRoute } from './routes/ci/delete-trust-policy.route';
import { exchangePipelineTokenRoute } from './routes/ci/exchange-pipeline-token.route';
import { createServiceAccountRoute } from './routes/service-accounts/create-service-account.route';
import { revokeServiceAccountRoute } from './routes/service-accounts/revoke-service-account.route';
import { makePipelineExchangeService } from './services/pipeline-exchange.service';

/** The write plane: every mutation, and the only plane that issues tokens. */
export const buildWriteApi: TBuildPlane<TBaseEnv> = async ({ env, db, logger, repos, redis, auth }) => {
  // Tokens are issued here, so a fresh deployment gets its first signing key at this boot.
  await auth.signingKeys.ensureActiveKey();
  const sessions = makeSessionService({
    users: repos.users,
    refreshTokens: repos.refreshTokens,
    audit: repos.audit,
    accessTokens: auth.accessTokens,
    throttle: makeLoginThrottle({ redis, prefix: env.REDIS_PREFIX }),
  });
  const deviceFlow = makeDeviceFlowService({
    grants: makeDeviceGrantStore({ redis, prefix: env.REDIS_PREFIX }),
    users: repos.users,
    refreshTokens: repos.refreshTokens,
    audit: repos.audit,
    accessTokens: auth.accessTokens,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    settings: { expiresInSeconds: env.DEVICE_CODE_TTL_SECONDS, intervalSeconds: env.DEVICE_POLL_INTERVAL_SECONDS },
  });
  // Scans (issue 4): creation writes rows + outbox in one transaction, then enqueues the worker's jobs.
  const queue = makeQueueProducer({ connection: redis, prefix: env.REDIS_PREFIX });
  const scans = makeScanService({
    db: db.primary,
    queue,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    repositorySources: { fileUrls: env.FILE_REPOSITORIES_ENABLED },
    log: logger,
  });
  // Pipeline OIDC exchange, trust policies and service accounts (issue 3). Plain-http loopback
  // issuers serve local tests only: production trusts https issuers alone.
  const allowLoopbackHttp = env.NODE_ENV !== 'production';
  const pipelineExchange = makePipelineExchangeService({
    trustPolicies: repos.trustPolicies,
    audit: repos.audit,
    accessTokens: auth.accessTokens,
    allowLoopbackHttp,
    log: logger,
  });
  return {
    closeHooks: [() => queue.close()],
    routes: [
      ...memberRoutes(makeMembersService({ db })),
      createScanRoute({ scans }), loginRoute({ sessions }), refreshRoute({ sessions }), logoutRoute({ sessions }),
      deviceCodeRoute({ deviceFlow }), deviceApproveRoute({ deviceFlow }), deviceTokenRoute({ deviceFlow }),
      createTrustPolicyRoute({ trustPolicies: repos.trustPolicies, allowLoopbackHttp }),
      deleteTrustPolicyRoute({ trustPolicies: repos.trustPolicies }),
      exchangePipelineTokenRoute({ pipelineExchange }),
      createServiceAccountRoute({ serviceAccounts: repos.serviceAccounts }),
      revokeServiceAccountRoute({ serviceAccounts: repos.serviceAccounts })],
  };
};

function memberRoutes(members: ReturnType<typeof makeMembersService>) {
  return [addMemberRoute({ members }), changeMemberRoleRoute({ members }), removeMemberRoute({ members })];
}
