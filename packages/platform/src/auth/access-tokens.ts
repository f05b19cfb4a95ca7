import { randomUUID, verify as verifySignature, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '@palisade/domain';
import { PRINCIPAL_KINDS, type TPrincipal, type TPrincipalKind } from './principal';
import type { TSigningKeyService } from './signing-keys';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_ISSUER = 'palisade';
export const TOKEN_AUDIENCE = 'palisade-api';
export const CLOCK_SKEW_SECONDS = 5;
/** Ours are under 1 KiB (a pipeline token with every scope under 2 KiB); anything longer is refused unread. */
export const MAX_TOKEN_LENGTH = 8 * 1024;
/**
 * Our kids are UUIDs in a varchar(64). A kid is looked up only when it is 1–64 printable ASCII
 * characters: a NUL or a lone surrogate would make PostgreSQL throw, not answer "unknown".
 */
export const MAX_KID_LENGTH = 64;
const KID = /^[\x21-\x7e]+$/;
/**
 * Tokens already verified, by their exact text. An RSA signature check is most of what auth adds
 * to a request (~25 µs), and a client presents the same token for up to 15 minutes; a hit still
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

/** A token taken apart, before its signature is checked: nothing in it is trusted yet. */
export interface TParsedToken {
  kid: string;
  claims: Record<string, unknown>;
  /** `header.payload`, the bytes the signature covers. */
  signingInput: string;
  signature: Buffer;
}

/**
 * RS256 access tokens with a `kid`. Verification is total: whatever string it is given, it
 * returns a principal or throws AppError('unauthenticated') — never another exception — and it
 * accepts RS256 only, whatever the header claims, so `alg: none` and HS256 tokens signed with
 * the public key are refused outright. The signature is checked with node:crypto against the
 * key service's parsed KeyObject of the kid, and the claims by checkClaims below.
 */
export function makeAccessTokenService({ keys }: { keys: Pick<TSigningKeyService, 'signingKey' | 'verificationKey'> }): TAccessTokenService {
  const verified = new Map<string, { principal: TPrincipal; kid: string; exp: number }>();

  function remember(token: string, entry: { principal: TPrincipal; kid: string; exp: number }): void {
    // Map keeps insertion order: the first key is the oldest entry.
    if (verified.size >= VERIFIED_CACHE_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, entry);
  }

  /** Synchronous on a miss, so a token seen for the first time costs no extra await. */
  function fromCache(token: string): Promise<TPrincipal | undefined> | undefined {
    const hit = verified.get(token);
    return hit && stillTrusted(token, hit);
  }

  async function stillTrusted(token: string, hit: { principal: TPrincipal; kid: string; exp: number }): Promise<TPrincipal | undefined> {
    if (isExpired(hit.exp, Date.now()) || !(await keys.verificationKey(hit.kid))) {
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
      if (typeof token !== 'string') throw refuse('The access token is not a JWT.');
      if (token.length > MAX_TOKEN_LENGTH) throw refuse(`The access token is longer than ${MAX_TOKEN_LENGTH} characters.`);
      const pending = fromCache(token);
      const cached = pending && (await pending);
      if (cached) return cached;
      const parsed = parseAccessToken(token);
      const key = await keys.verificationKey(parsed.kid);
      if (!key) throw refuse('The access token was signed by an unknown or retired key.');
      if (!hasValidSignature(parsed, key)) throw refuse('The access token failed verification.');
      const { exp } = checkClaims(parsed.claims, Date.now());
      const principal = toPrincipal(parsed.claims);
      remember(token, { principal: copyOf(principal), kid: parsed.kid, exp });
      return principal;
    },
  };
}

/**
 * Takes a compact JWS apart and checks its shape and header: three base64url segments (canonical,
 * unpadded), a JSON-object header with `typ: "JWT"`, `alg: "RS256"`, no `crit`, and a string kid of
 * at most MAX_KID_LENGTH printable ASCII characters, and a JSON-object payload. Throws the 401 for anything else.
 */
export function parseAccessToken(token: string): TParsedToken {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw refuse('The access token is not a JWT.');
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  if (second < 0 || token.indexOf('.', second + 1) >= 0) throw refuse('The access token is not a JWT.');
  const header = jsonObject(token.slice(0, first));
  if (!header) throw refuse('The access token is not a JWT.', 'Its header is not a base64url-encoded JSON object.');
  if (header.typ !== 'JWT') throw refuse('The access token is not a JWT (typ).');
  if (header.alg !== 'RS256') throw refuse('The access token must be signed with RS256.');
  if (header.crit !== undefined) throw refuse('The access token carries critical header parameters this service does not understand.');
  const kid = header.kid;
  if (typeof kid !== 'string' || kid.length === 0) throw refuse('The access token names no signing key (kid).');
  if (kid.length > MAX_KID_LENGTH || !KID.test(kid)) throw refuse('The access token names no valid signing key (kid).');
  const claims = jsonObject(token.slice(first + 1, second));
  if (!claims) throw refuse('The access token is not a JWT.', 'Its payload is not a base64url-encoded JSON object.');
  const signature = base64url(token.slice(second + 1));
  if (!signature || signature.length === 0) throw refuse('The access token carries no valid signature.');
  return { kid, claims, signingInput: token.slice(0, second), signature };
}

function hasValidSignature(parsed: TParsedToken, key: KeyObject): boolean {
  if (key.type !== 'public' || key.asymmetricKeyType !== 'rsa') return false;
  try {
    return verifySignature('RSA-SHA256', Buffer.from(parsed.signingInput, 'latin1'), key, parsed.signature);
  } catch {
    return false;
  }
}

/**
 * The registered claims of a token whose signature holds: `iss` is ours, `aud` is or contains
 * ours, `nbf` (when present) has come and `exp` (required) has not passed, both with
 * CLOCK_SKEW_SECONDS of tolerance, and `iat` (when present) is a number. Throws the 401.
 */
export function checkClaims(claims: Record<string, unknown>, nowMs: number): { exp: number } {
  if (claims.iss !== TOKEN_ISSUER) throw refuse('The access token failed verification.');
  const aud = claims.aud;
  if (!(aud === TOKEN_AUDIENCE || (Array.isArray(aud) && aud.includes(TOKEN_AUDIENCE)))) throw refuse('The access token failed verification.');
  const { exp, nbf, iat } = claims;
  if (!isNumericDate(exp) || (nbf !== undefined && !isNumericDate(nbf)) || (iat !== undefined && !isNumericDate(iat))) {
    throw refuse('The access token failed verification.');
  }
  if (nbf !== undefined && nbf > Math.floor(nowMs / 1000) + CLOCK_SKEW_SECONDS) throw refuse('The access token is not valid yet.');
  if (isExpired(exp, nowMs)) throw refuse('The access token has expired.', 'Refresh the session or sign in again.');
  return { exp };
}

/** The same rule on the full path and on a cache hit (and as jsonwebtoken applied it). */
function isExpired(exp: number, nowMs: number): boolean {
  return Math.floor(nowMs / 1000) >= exp + CLOCK_SKEW_SECONDS;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A canonical, unpadded base64url segment's bytes; undefined for anything else. */
function base64url(segment: string): Buffer | undefined {
  // Buffer.from skips characters outside the alphabet and ignores stray trailing bits, so the
  // round trip is what tells a canonical segment from one it merely tolerated.
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

function jsonObject(segment: string): Record<string, unknown> | undefined {
  const bytes = base64url(segment);
  if (!bytes || bytes.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Callers may change what they get (scopes included) without reaching the cached entry. */
function copyOf(principal: TPrincipal): TPrincipal {
  return { ...principal, ...(principal.scopes ? { scopes: [...principal.scopes] } : {}) };
}

function toPrincipal(claims: Record<string, unknown>): TPrincipal {
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
