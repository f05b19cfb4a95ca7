import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, hashPassword, verifyPassword } from '@palisade/domain';
import type { TAccessTokenService } from '@palisade/platform';
import type { TLoginThrottle } from './login-throttle';

// A refresh token lives this long unused; each use rotates it inside its family.
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;


interface TUserRecord {
  id: string;
  email: string;
  passwordHash: string | null;
  isPlatformAdmin: boolean;
}

interface TRefreshRecord {
  id: string;
  familyId: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

export interface TSessionDeps {
  users: { byEmail(email: string): Promise<TUserRecord | null>; byId(id: string): Promise<TUserRecord | null> };
  refreshTokens: {
    issue(token: { id: string; familyId: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<unknown>;
    findByHash(tokenHash: string): Promise<TRefreshRecord | null>;
    /** Marks a token used; false when it already was (a concurrent or replayed use). */
    markUsed(id: string, replacedById: string): Promise<boolean>;
    revokeFamily(familyId: string): Promise<unknown>;
  };
  audit: { append(orgId: string | null, entry: { actorType: string; actorId: string | null; action: string; targetType?: string; targetId?: string; data?: Record<string, unknown>; correlationId?: string }): Promise<unknown> };
  accessTokens: Pick<TAccessTokenService, 'issue'>;
  throttle: TLoginThrottle;
}

export interface TSessionTokens {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
}

export type TSessionService = ReturnType<typeof makeSessionService>;

/**
 * Password sessions: an access token plus a rotating refresh token. A refresh token is single
 * use; presenting a used one means it was stolen or replayed, so its whole family is revoked.
 */
export function makeSessionService(deps: TSessionDeps) {
  // Compared against when the email is unknown, with the same scrypt cost as a real hash, so a
  // miss takes as long as a wrong password and timing does not reveal which accounts exist.
  const dummyHash = hashPassword(randomBytes(16).toString('hex'));

  async function startSession(user: TUserRecord, familyId: string): Promise<TSessionTokens> {
    const refresh = await issueRefresh(user.id, familyId);
    const access = await deps.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: user.isPlatformAdmin, sessionId: familyId });
    return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken: refresh.token };
  }

  async function issueRefresh(userId: string, familyId: string, id: string = randomUUID()) {
    const token = randomBytes(32).toString('base64url');
    await deps.refreshTokens.issue({
      id,
      familyId,
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
    return { id, token };
  }

  /** A sign-in that did not get through, in the audit log (no user is proven yet). */
  function auditRefusedLogin(action: 'auth.login_failed' | 'auth.login_throttled', account: string, meta: { ip: string; correlationId: string }) {
    return deps.audit.append(null, { actorType: 'anonymous', actorId: null, action, data: { email: account, ip: meta.ip }, correlationId: meta.correlationId });
  }

  /** Takes one attempt from the account's and the address's budgets; a refusal is audited too. */
  async function takeAttempt(account: string, meta: { ip: string; correlationId: string }): Promise<void> {
    try {
      await deps.throttle.check(account, meta.ip);
    } catch (error) {
      if (error instanceof AppError && error.code === 'too_many_attempts') await auditRefusedLogin('auth.login_throttled', account, meta);
      throw error;
    }
  }

  return {
    async login(email: string, password: string, meta: { ip: string; correlationId: string }): Promise<TSessionTokens> {
      const account = email.trim().toLowerCase();
      await takeAttempt(account, meta);
      const user = await deps.users.byEmail(account);
      const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
      if (!user || !user.passwordHash || !ok) {
        await auditRefusedLogin('auth.login_failed', account, meta);
        throw new AppError('invalid_credentials', { message: 'The email or password is wrong.' });
      }
      await deps.throttle.recordSuccess(account, meta.ip);
      const correlationId = meta.correlationId;
      await deps.audit.append(null, { actorType: 'user', actorId: user.id, action: 'auth.login', targetType: 'user', targetId: user.id, correlationId });
      return startSession(user, randomUUID());
    },

    async refresh(presented: string | undefined): Promise<TSessionTokens> {
      const record = presented ? await deps.refreshTokens.findByHash(hashToken(presented)) : null;
      if (!record || record.revokedAt || record.expiresAt.getTime() <= Date.now()) {
        throw new AppError('invalid_refresh_token', { message: 'The session is missing, expired or revoked.' });
      }
      const nextId = randomUUID();
      if (record.usedAt || !(await deps.refreshTokens.markUsed(record.id, nextId))) {
        await deps.refreshTokens.revokeFamily(record.familyId);
        await deps.audit.append(null, { actorType: 'user', actorId: record.userId, action: 'auth.refresh_reuse_detected', targetType: 'session', targetId: record.familyId });
        throw new AppError('invalid_refresh_token', { message: 'This refresh token was already used; the session has been revoked.' });
      }
      const user = await deps.users.byId(record.userId);
      if (!user) throw new AppError('invalid_refresh_token', { message: 'The session’s user no longer exists.' });
      const refresh = await issueRefresh(user.id, record.familyId, nextId);
      const access = await deps.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: user.isPlatformAdmin, sessionId: record.familyId });
      return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken: refresh.token };
    },

    async logout(presented: string | undefined): Promise<void> {
      const record = presented ? await deps.refreshTokens.findByHash(hashToken(presented)) : null;
      if (record) await deps.refreshTokens.revokeFamily(record.familyId);
    },
  };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
