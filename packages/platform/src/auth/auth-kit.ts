import type { TRole } from '@palisade/domain';
import { isRole, isServiceAccountToken } from '@palisade/domain';
import type { TAccessDeps } from '../http/route-access';
import { makeAccessTokenService, type TAccessTokenService } from './access-tokens';
import { makeServiceAccountAuthenticator, type TServiceAccountLookup } from './service-account-tokens';
import { makeSigningKeyService, type TSigningKeyRepo, type TSigningKeyService } from './signing-keys';

export interface TMembershipLookup {
  role(orgId: string, userId: string): Promise<string | null>;
}

export interface TAuthKit {
  signingKeys: TSigningKeyService;
  accessTokens: TAccessTokenService;
  access: TAccessDeps;
}

/** Token verification and tenant resolution, wired the same way on every plane. */
export function makeAuthKit({
  keys,
  memberships,
  kek,
  serviceAccounts,
}: {
  keys: TSigningKeyRepo;
  memberships: TMembershipLookup;
  kek: Buffer;
  /** When given, a `psa_` bearer is a service-account token looked up by hash; anything else is a JWT. */
  serviceAccounts?: TServiceAccountLookup;
}): TAuthKit {
  const signingKeys = makeSigningKeyService({ keys, kek });
  const accessTokens = makeAccessTokenService({ keys: signingKeys });
  const authenticateServiceAccount = serviceAccounts ? makeServiceAccountAuthenticator({ accounts: serviceAccounts }) : undefined;
  return {
    signingKeys,
    accessTokens,
    access: {
      authenticate: (token) =>
        authenticateServiceAccount && isServiceAccountToken(token) ? authenticateServiceAccount(token) : accessTokens.verify(token),
      async resolveMembership(principal, orgId): Promise<TRole | null> {
        if (principal.kind !== 'human') return null;
        const role = await memberships.role(orgId, principal.id);
        return role && isRole(role) ? role : null;
      },
    },
  };
}
