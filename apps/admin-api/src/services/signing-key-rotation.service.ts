import { ACCESS_TOKEN_TTL_SECONDS, type TSigningKeyService } from '@palisade/platform';

// A retiring key verifies for the longest an access token under it can live, plus the time
// other processes may keep signing with it (they re-read the active key every minute) and skew.
export const RETIRING_OVERLAP_MS = (ACCESS_TOKEN_TTL_SECONDS + 120) * 1000;

interface TKeyRecord {
  kid: string;
  algorithm: string;
  status: 'active' | 'retiring' | 'retired';
  createdAt: Date;
  retireAfter: Date | null;
}

export interface TRotationDeps {
  signingKeys: Pick<TSigningKeyService, 'generate'>;
  keys: {
    active(): Promise<TKeyRecord | null>;
    insert(key: ReturnType<TSigningKeyService['generate']>): Promise<TKeyRecord>;
    markRetiring(kid: string, retireAfter: Date): Promise<boolean>;
    retireExpired(now?: Date): Promise<number>;
    listAll(): Promise<TKeyRecord[]>;
  };
  audit: { append(orgId: null, entry: { actorType: string; actorId: string; action: string; targetType: string; targetId: string; data?: unknown; correlationId?: string }): Promise<unknown> };
}

/**
 * Rotation: the new key signs from now on; the old one moves to `retiring` and stays in the
 * JWKS and the verifiers until every token it signed has expired; then it is retired.
 */
export function makeSigningKeyRotation(deps: TRotationDeps) {
  return {
    async rotate(actor: { id: string; correlationId: string }) {
      const previous = await deps.keys.active();
      const next = await deps.keys.insert(deps.signingKeys.generate());
      if (previous) await deps.keys.markRetiring(previous.kid, new Date(Date.now() + RETIRING_OVERLAP_MS));
      await deps.keys.retireExpired();
      await deps.audit.append(null, {
        actorType: 'user',
        actorId: actor.id,
        action: 'signing_key.rotated',
        targetType: 'signing_key',
        targetId: next.kid,
        data: { previous_kid: previous?.kid ?? null },
        correlationId: actor.correlationId,
      });
      const all = await deps.keys.listAll();
      return { active: next, retiring: all.filter((key) => key.status === 'retiring') };
    },
    async list() {
      await deps.keys.retireExpired();
      return deps.keys.listAll();
    },
  };
}

export type TSigningKeyRotation = ReturnType<typeof makeSigningKeyRotation>;

export function toKeyInfo(key: TKeyRecord) {
  return {
    kid: key.kid,
    algorithm: key.algorithm,
    status: key.status,
    created_at: key.createdAt.toISOString(),
    retire_after: key.retireAfter ? key.retireAfter.toISOString() : null,
  };
}
