import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '@palisade/domain';
import { PRINCIPAL_KINDS, type TPrincipal, type TPrincipalKind } from './principal';
import type { TSigningKeyService } from './signing-keys';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_ISSUER = 'palisade';
export const TOKEN_AUDIENCE = 'palisade-api';
const CLOCK_SKEW_SECONDS = 5;
/**
 * Tokens already verified, by their exact text. An RSA signature check is most of what auth adds
 * to a request (~50 µs), and a client presents the same token for up to 15 minutes; a hit still
 * re-checks expiry and asks the key service whether the kid is still trusted (an in-memory
 * lookup), so rotation and retirement act on cached tokens as on new ones. A tampered token is
 * different text, hence a miss and a full verification.
 */
const VERIFIED_CACHE_MAX = 10_000;

interface TAccessClaims {
  sub: string;
  pk: TPrincipalKind;
  adm?: boolean;
  org?: string;
  scp?: string[];
  sid?: string;
}

export interface TAccessTokenService {
  issue(principal: TPrincipal, ttlSeconds?: number): Promise<{ token: string; expiresIn: number }>;
  verify(token: string): Promise<TPrincipal>;
}

/**
 * RS256 access tokens with a `kid`. Verification accepts RS256 only, whatever the header
 * claims, so `alg: none` and HS256 tokens signed with the public key are refused outright.
 */
export function makeAccessTokenService({ keys }: { keys: Pick<TSigningKeyService, 'signingKey' | 'verificationKey'> }): TAccessTokenService {
  const verified = new Map<string, { principal: TPrincipal; kid: string; expiresAtMs: number }>();

  function remember(token: string, entry: { principal: TPrincipal; kid: string; expiresAtMs: number }): void {
    // Map keeps insertion order: the first key is the oldest entry.
    if (verified.size >= VERIFIED_CACHE_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, entry);
  }

  async function fromCache(token: string): Promise<TPrincipal | undefined> {
    const hit = verified.get(token);
    if (!hit) return undefined;
    if (Date.now() >= hit.expiresAtMs + CLOCK_SKEW_SECONDS * 1000 || !(await keys.verificationKey(hit.kid))) {
      // Expired or its key is no longer trusted: the full path gives the precise refusal.
      verified.delete(token);
      return undefined;
    }
    return copyOf(hit.principal);
  }

  return {
    async issue(principal, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS) {
      const { kid, privateKey } = await keys.signingKey();
      const claims: TAccessClaims = {
        sub: principal.id,
        pk: principal.kind,
        ...(principal.isPlatformAdmin ? { adm: true } : {}),
        ...(principal.orgId ? { org: principal.orgId } : {}),
        ...(principal.scopes ? { scp: [...principal.scopes] } : {}),
        ...(principal.sessionId ? { sid: principal.sessionId } : {}),
      };
      const token = jwt.sign(claims, privateKey, {
        algorithm: 'RS256',
        keyid: kid,
        expiresIn: ttlSeconds,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        jwtid: randomUUID(),
      });
      return { token, expiresIn: ttlSeconds };
    },

    async verify(token) {
      const cached = await fromCache(token);
      if (cached) return cached;
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.payload === 'string') throw refuse('The access token is not a JWT.');
      if (decoded.header.alg !== 'RS256') throw refuse('The access token must be signed with RS256.');
      const kid = decoded.header.kid;
      if (!kid) throw refuse('The access token names no signing key (kid).');
      const key = await keys.verificationKey(kid);
      if (!key) throw refuse('The access token was signed by an unknown or retired key.');
      let claims: jwt.JwtPayload;
      try {
        claims = jwt.verify(token, key, {
          algorithms: ['RS256'],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          clockTolerance: CLOCK_SKEW_SECONDS,
        }) as jwt.JwtPayload;
      } catch (error) {
        if (error instanceof jwt.TokenExpiredError) throw refuse('The access token has expired.', 'Refresh the session or sign in again.');
        throw refuse('The access token failed verification.');
      }
      const principal = toPrincipal(claims);
      if (typeof claims.exp === 'number') remember(token, { principal: copyOf(principal), kid, expiresAtMs: claims.exp * 1000 });
      return principal;
    },
  };
}

/** Callers may change what they get (scopes included) without reaching the cached entry. */
function copyOf(principal: TPrincipal): TPrincipal {
  return { ...principal, ...(principal.scopes ? { scopes: [...principal.scopes] } : {}) };
}

function toPrincipal(claims: jwt.JwtPayload): TPrincipal {
  const kind = claims.pk as TPrincipalKind;
  if (typeof claims.sub !== 'string' || !PRINCIPAL_KINDS.includes(kind)) throw refuse('The access token carries no valid principal.');
  return {
    kind,
    id: claims.sub,
    isPlatformAdmin: claims.adm === true,
    orgId: typeof claims.org === 'string' ? claims.org : undefined,
    scopes: Array.isArray(claims.scp) ? claims.scp.filter((s): s is string => typeof s === 'string') : undefined,
    sessionId: typeof claims.sid === 'string' ? claims.sid : undefined,
    tokenId: typeof claims.jti === 'string' ? claims.jti : undefined,
  };
}

function refuse(message: string, hint?: string): AppError {
  return new AppError('unauthenticated', { message, ...(hint ? { hint } : {}) });
}
