import { generateServiceAccountToken } from '@palisade/domain';
import { makeServiceAccountAuthenticator, type TServiceAccountLookup } from './service-account-tokens';

describe('service-account bearer tokens', () => {
  const orgId = '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f';
  const issued = generateServiceAccountToken();
  let clock = 0;
  let revoked = false;
  const accounts: TServiceAccountLookup & { calls: number } = {
    calls: 0,
    async activeByTokenHash(hash) {
      this.calls += 1;
      return hash === issued.tokenHash && !revoked ? { id: 'sa-1', orgId, scopes: ['scans:create'] } : null;
    },
  };
  const authenticate = makeServiceAccountAuthenticator({ accounts, cacheMs: 5_000, now: () => clock });

  it('turns a known token into an org-bound service_account principal with its scopes', async () => {
    await expect(authenticate(issued.token)).resolves.toEqual({ kind: 'service_account', id: 'sa-1', isPlatformAdmin: false, orgId, scopes: ['scans:create'] });
  });

  it('serves repeats from the cache and sees a revocation once the cache entry is older than its bound', async () => {
    const before = accounts.calls;
    await authenticate(issued.token);
    expect(accounts.calls).toBe(before);
    revoked = true;
    clock += 5_001;
    await expect(authenticate(issued.token)).rejects.toMatchObject({ code: 'unauthenticated', message: 'The service-account token is unknown or revoked.' });
  });

  it('refuses a malformed psa_ token without a lookup', async () => {
    const before = accounts.calls;
    await expect(authenticate('psa_short')).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(accounts.calls).toBe(before);
  });
});
