import type { TBaseEnv, TBuildPlane } from '@palisade/platform';
import { listOrganizationsRoute } from './routes/organizations/list-organizations.route';
import { setQuotaRoute } from './routes/organizations/set-quota.route';
import { listSigningKeysRoute } from './routes/signing-keys/list-signing-keys.route';
import { rotateSigningKeyRoute } from './routes/signing-keys/rotate-signing-key.route';
import { makeOrganizationAdmin } from './services/organization-admin.service';
import { makeSigningKeyRotation } from './services/signing-key-rotation.service';

/** The admin plane: cross-tenant administration, platform administrators only. */
export const buildAdminApi: TBuildPlane<TBaseEnv> = async ({ db, repos, auth }) => {
  const rotation = makeSigningKeyRotation({ signingKeys: auth.signingKeys, db });
  const organizations = makeOrganizationAdmin({ organizations: repos.organizations, orgQuotas: repos.orgQuotas, audit: repos.audit });
  return {
    routes: [
      listSigningKeysRoute({ rotation }),
      rotateSigningKeyRoute({ rotation }),
      listOrganizationsRoute({ organizations }),
      setQuotaRoute({ organizations }),
    ],
  };
};
