// Authentication of `psa_` bearer tokens (service accounts). The token is looked up by its
// sha256; hits and misses are cached briefly so a busy automation does not cost a query per
// request. The cache bounds how long a revoked token keeps working on a plane: SERVICE_ACCOUNT_CACHE_MS.
import { AppError, hashServiceAccountToken, SERVICE_ACCOUNT_TOKEN_PREFIX } from '@palisade/domain';
import type { TAuthenticate, TPrincipal } from './principal';

export interface TServiceAccountLookup {
  /** The unrevoked account whose token hashes to this, in whichever organization. */
  activeByTokenHash(tokenHash: string): Promise<{ id: string; orgId: string; scopes: string[] } | null>;
}

export const SERVICE_ACCOUNT_CACHE_MS = 5_000;
// Bounded so a flood of random psa_ tokens cannot grow the process without limit.
const MAX_CACHED_TOKENS = 10_000;
const TOKEN_SHAPE = new RegExp(`^${SERVICE_ACCOUNT_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

export function makeServiceAccountAuthenticator({
  accounts,
  cacheMs = SERVICE_ACCOUNT_CACHE_MS,
  now = () => Date.now(),
}: {
  accounts: TServiceAccountLookup;
  cacheMs?: number;
  now?: () => number;
}): TAuthenticate {
  const cache = new Map<string, { principal: TPrincipal | null; at: number }>();

  async function lookup(tokenHash: string): Promise<TPrincipal | null> {
    const cached = cache.get(tokenHash);
    if (cached && now() - cached.at < cacheMs) return cached.principal;
    const account = await accounts.activeByTokenHash(tokenHash);
    const principal: TPrincipal | null = account
      ? { kind: 'service_account', id: account.id, isPlatformAdmin: false, orgId: account.orgId, scopes: [...account.scopes] }
      : null;
    cache.delete(tokenHash);
    if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value as string);
    cache.set(tokenHash, { principal, at: now() });
    return principal;
  }

  return async (token) => {
    const principal = TOKEN_SHAPE.test(token) ? await lookup(hashServiceAccountToken(token)) : null;
    if (!principal) {
      throw new AppError('unauthenticated', {
        message: 'The service-account token is unknown or revoked.',
        hint: 'Create a new service account token (POST /api/v2/service-accounts) and send it as "Authorization: Bearer psa_...".',
      });
    }
    return principal;
  };
}
