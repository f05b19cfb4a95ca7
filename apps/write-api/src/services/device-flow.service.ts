// The OAuth 2.0 device authorization grant (RFC 8628): a CLI asks for a code pair, a person
// approves the user code on the verification page, and the CLI's polling redeems the device
// code, exactly once, for tokens acting as that person.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { TDeviceApproveResponse, TDeviceCodeResponse, TDeviceTokenResponse } from '@palisade/contracts';
import {
  AppError,
  DEVICE_CODE_GRANT_TYPE,
  DEVICE_VERIFICATION_PATH,
  findDeviceClient,
  formatUserCode,
  generateDeviceCode,
  generateUserCode,
  hashDeviceCode,
  MAX_USER_CODE_GUESSES,
  normalizeUserCode,
  oauthError,
  pollRefusal,
  requireDeviceClient,
  resolveDeviceScopes,
  type TDeviceGrantSettings,
} from '@palisade/domain';
import type { TAccessTokenService, TPrincipal } from '@palisade/platform';
import type { TDeviceGrantStore } from './device-flow.store';
import { REFRESH_TOKEN_TTL_SECONDS } from './session.service';

export interface TDeviceFlowDeps {
  grants: TDeviceGrantStore;
  users: { byId(id: string): Promise<{ id: string; isPlatformAdmin: boolean } | null> };
  refreshTokens: { issue(token: { id: string; familyId: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<unknown> };
  audit: {
    append(
      orgId: string | null,
      entry: { actorType: string; actorId: string | null; action: string; targetType?: string; targetId?: string; data?: Record<string, unknown>; correlationId?: string },
    ): Promise<unknown>;
  };
  accessTokens: Pick<TAccessTokenService, 'issue'>;
  publicBaseUrl: string;
  settings: TDeviceGrantSettings;
  now?: () => number;
}

export type TDeviceFlowService = ReturnType<typeof makeDeviceFlowService>;

// A fresh user code collides with a live one about once in 10^9 draws; a few retries make a
// failure here a sign of a broken store, not bad luck.
const USER_CODE_ATTEMPTS = 5;

export function makeDeviceFlowService(deps: TDeviceFlowDeps) {
  const now = deps.now ?? Date.now;
  const verificationUri = new URL(DEVICE_VERIFICATION_PATH, deps.publicBaseUrl).toString();

  async function issueTokens(user: { id: string; isPlatformAdmin: boolean }, withRefresh: boolean) {
    // The same session shape as a password sign-in: the refresh token starts its own rotation
    // family, so /auth/refresh rotates it and reuse revokes it alike.
    const familyId = randomUUID();
    const access = await deps.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: user.isPlatformAdmin, sessionId: familyId });
    if (!withRefresh) return { familyId, access, refreshToken: undefined };
    const refreshToken = randomBytes(32).toString('base64url');
    await deps.refreshTokens.issue({
      id: randomUUID(),
      familyId,
      userId: user.id,
      // sha256 hex, as the session service looks refresh tokens up.
      tokenHash: createHash('sha256').update(refreshToken).digest('hex'),
      expiresAt: new Date(now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
    return { familyId, access, refreshToken };
  }

  return {
    /** RFC 8628 section 3.1–3.2. */
    async start(input: { clientId: string; scope?: string }): Promise<TDeviceCodeResponse> {
      const client = requireDeviceClient(input.clientId);
      const scopes = resolveDeviceScopes(client, input.scope);
      const deviceCode = generateDeviceCode();
      const { expiresInSeconds, intervalSeconds } = deps.settings;
      for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt += 1) {
        const userCode = generateUserCode();
        const at = now();
        const created = await deps.grants.create(
          { id: randomUUID(), deviceCodeHash: hashDeviceCode(deviceCode), userCode, clientId: client.clientId, scopes, expiresAt: at + expiresInSeconds * 1000, intervalSeconds },
          at,
        );
        if (!created) continue;
        const shown = formatUserCode(userCode);
        const complete = new URL(verificationUri);
        complete.searchParams.set('user_code', shown);
        return {
          device_code: deviceCode,
          user_code: shown,
          verification_uri: verificationUri,
          verification_uri_complete: complete.toString(),
          expires_in: expiresInSeconds,
          interval: intervalSeconds,
        };
      }
      throw new Error('could not allocate a unique user code');
    },

    /** A signed-in person approves or denies the device showing this user code. */
    async decide(input: { userCode: string; decision: 'approve' | 'deny'; principal: TPrincipal; correlationId: string }): Promise<TDeviceApproveResponse> {
      const { principal } = input;
      if (principal.kind !== 'human') {
        throw new AppError('forbidden', { message: 'Only a signed-in person can approve a device.', hint: 'Sign in with your own account on the verification page.' });
      }
      const who = `user:${principal.id}`;
      const guesses = await deps.grants.guesses(who);
      if (guesses.count >= MAX_USER_CODE_GUESSES) {
        throw new AppError('too_many_attempts', { message: 'Too many wrong codes.', retryAfterSeconds: guesses.resetInSeconds });
      }
      const userCode = normalizeUserCode(input.userCode);
      const status = input.decision === 'approve' ? 'approved' : 'denied';
      const result = userCode ? await deps.grants.decide(userCode, status, principal.id, now()) : ({ kind: 'unknown' } as const);
      if (result.kind === 'unknown' || result.kind === 'expired') {
        await deps.grants.countGuess(who);
        throw new AppError('invalid_user_code', {
          message: result.kind === 'expired' ? 'This code has expired.' : 'No device is waiting for this code.',
          ...(result.kind === 'expired' ? { hint: 'Start the sign-in again on your device to get a new code.' } : {}),
        });
      }
      if (result.kind === 'already_decided') {
        throw new AppError('invalid_state_transition', { message: `This code was already ${result.status === 'denied' ? 'denied' : 'approved'}.` });
      }
      const { grant } = result;
      await deps.audit.append(null, {
        actorType: 'user',
        actorId: principal.id,
        action: status === 'approved' ? 'auth.device_approved' : 'auth.device_denied',
        targetType: 'device_authorization',
        targetId: grant.id,
        data: { client_id: grant.clientId, scopes: grant.scopes },
        correlationId: input.correlationId,
      });
      return {
        user_code: formatUserCode(grant.userCode),
        status,
        client_id: grant.clientId,
        client_name: findDeviceClient(grant.clientId)?.name ?? grant.clientId,
        scopes: grant.scopes,
      };
    },

    /** RFC 8628 section 3.4–3.5: one poll. */
    async redeem(input: { grantType: string; deviceCode: string; clientId: string; correlationId: string }): Promise<TDeviceTokenResponse> {
      if (input.grantType !== DEVICE_CODE_GRANT_TYPE) {
        throw new AppError('unsupported_grant_type', {
          message: `grant_type "${input.grantType.slice(0, 80)}" is not supported here.`,
          extra: oauthError('unsupported_grant_type', `Only ${DEVICE_CODE_GRANT_TYPE} is supported.`),
        });
      }
      requireDeviceClient(input.clientId);
      const outcome = await deps.grants.poll(hashDeviceCode(input.deviceCode), input.clientId, now());
      if (outcome.kind !== 'approved') throw pollRefusal(outcome);

      const user = await deps.users.byId(outcome.userId);
      if (!user) throw pollRefusal({ kind: 'invalid', reason: 'unknown' });
      const tokens = await issueTokens(user, outcome.scopes.includes('offline_access'));
      await deps.audit.append(null, {
        actorType: 'client',
        actorId: input.clientId,
        action: 'auth.device_token_issued',
        targetType: 'user',
        targetId: user.id,
        data: { grant_id: outcome.grantId, client_id: input.clientId, scopes: outcome.scopes, session_id: tokens.familyId, refresh_token: tokens.refreshToken !== undefined },
        correlationId: input.correlationId,
      });
      return {
        access_token: tokens.access.token,
        token_type: 'Bearer',
        expires_in: tokens.access.expiresIn,
        ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
      };
    },
  };
}
