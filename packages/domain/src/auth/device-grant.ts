// The life of one device authorization (RFC 8628): pending → approved | denied, then an approved
// grant is redeemed exactly once. Storage does the atomic steps; this module names the states,
// the timings and the refusal the token endpoint answers for each outcome.
import { AppError } from '../errors/app-error';
import { oauthError, type TDeviceScopeName } from './device-clients';

export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The path of the approval page (read plane); verification_uri is PUBLIC_BASE_URL + this. */
export const DEVICE_VERIFICATION_PATH = '/api/v2/auth/device';

export interface TDeviceGrantSettings {
  /** Lifetime of the device and user codes (RFC 8628 `expires_in`). */
  expiresInSeconds: number;
  /** Minimum seconds between polls (RFC 8628 `interval`). */
  intervalSeconds: number;
}

export const DEVICE_GRANT_DEFAULTS: Readonly<TDeviceGrantSettings> = Object.freeze({ expiresInSeconds: 600, intervalSeconds: 5 });

/** RFC 8628 section 3.5: each slow_down adds 5 seconds to the interval, for good. */
export const SLOW_DOWN_STEP_SECONDS = 5;

export type TDeviceGrantStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

export interface TDeviceGrant {
  clientId: string;
  scopes: TDeviceScopeName[];
  /** Unformatted user code (`BCDFGHJK`). */
  userCode: string;
  status: TDeviceGrantStatus;
  /** Epoch milliseconds. */
  expiresAt: number;
  intervalSeconds: number;
  userId?: string;
}

/** What one poll of the token endpoint found, decided atomically by the store. */
export type TDevicePollOutcome =
  | { kind: 'approved'; grantId: string; userId: string; scopes: TDeviceScopeName[] }
  | { kind: 'pending'; intervalSeconds: number }
  | { kind: 'slow_down'; intervalSeconds: number }
  | { kind: 'denied' }
  | { kind: 'expired' }
  /** Unknown code, a code of another client, or one already redeemed. */
  | { kind: 'invalid'; reason: 'unknown' | 'other_client' | 'redeemed' };

const INVALID_GRANT_MESSAGES = {
  unknown: 'The device code is unknown.',
  other_client: 'The device code was issued to another client.',
  redeemed: 'The device code was already redeemed.',
} as const;

/** The refusal the token endpoint answers for every outcome but `approved`. */
export function pollRefusal(outcome: Exclude<TDevicePollOutcome, { kind: 'approved' }>): AppError {
  switch (outcome.kind) {
    case 'pending':
      return new AppError('authorization_pending', {
        message: 'The user has not approved or denied the request yet.',
        extra: { ...oauthError('authorization_pending', 'The authorization request is still pending.'), interval: outcome.intervalSeconds },
      });
    case 'slow_down':
      return new AppError('slow_down', {
        message: `Polling faster than the interval; wait ${outcome.intervalSeconds} seconds between requests.`,
        extra: { ...oauthError('slow_down', 'Polling too fast: the interval grew by 5 seconds.'), interval: outcome.intervalSeconds },
      });
    case 'denied':
      return new AppError('access_denied', {
        message: 'The user denied the authorization request.',
        extra: oauthError('access_denied', 'The authorization request was denied.'),
      });
    case 'expired':
      return new AppError('expired_token', {
        message: 'The device code has expired.',
        extra: oauthError('expired_token', 'The device code has expired.'),
      });
    case 'invalid':
      return new AppError('invalid_grant', {
        message: INVALID_GRANT_MESSAGES[outcome.reason],
        extra: oauthError('invalid_grant', INVALID_GRANT_MESSAGES[outcome.reason]),
      });
  }
}

/**
 * Redis keys of the grant store, shared by the write plane (which owns the grants) and the
 * approval page on the read plane (which only reads one to show who asks). `prefix` is the
 * deployment's REDIS_PREFIX.
 */
export function deviceGrantKeys(prefix: string) {
  return {
    /** Hash of the grant, by the sha256 of its device code. */
    grant: (deviceCodeHash: string) => `${prefix}device:grant:${deviceCodeHash}`,
    /** The device-code hash, by the unformatted user code. */
    userCode: (userCode: string) => `${prefix}device:user-code:${userCode}`,
    /** Failed user-code guesses of one account or address (RFC 8628 section 5.1). */
    guesses: (who: string) => `${prefix}device:guesses:${who}`,
  };
}

/** Wrong user codes tolerated per account (approve) or address (page) in GUESS_WINDOW_SECONDS. */
export const MAX_USER_CODE_GUESSES = 10;
export const GUESS_WINDOW_SECONDS = 15 * 60;

// The grant outlives its expiry by this much, so a late poll still reads `expired_token`
// rather than `invalid_grant`; the user code dies at the expiry itself.
export const EXPIRED_GRANT_RETENTION_SECONDS = 10 * 60;
