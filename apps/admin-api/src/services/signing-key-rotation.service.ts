import { appendAuditEntry, makeSigningKeyRepo, type Db, type SigningKey } from '@palisade/db';
import { ACCESS_TOKEN_TTL_SECONDS, type TSigningKeyService } from '@palisade/platform';

// Clocks of the hosts that issue, rotate and verify disagree by a little: a margin for that.
const RETIREMENT_SKEW_SECONDS = 60;
// A retiring key verifies for the longest an access token under it can live, plus skew. Issuers
// read the active kid at each issuance, so none signs with the old key once the rotation commits.
export const RETIRING_OVERLAP_MS = (ACCESS_TOKEN_TTL_SECONDS + RETIREMENT_SKEW_SECONDS) * 1000;
// Long enough to wait behind a concurrent rotation holding the key-set lock.
const ROTATION_TX_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

type TKeyRecord = Pick<SigningKey, 'kid' | 'algorithm' | 'status' | 'createdAt' | 'retireAfter'>;

export interface TRotationDeps {
  signingKeys: Pick<TSigningKeyService, 'generate'>;
  db: Pick<Db, 'primary'>;
}

/**
 * Rotation: the new key signs from now on; the old one moves to `retiring` and stays in the
 * JWKS and the verifiers until every token it signed has expired; then it is retired. One
 * transaction under the key-set lock, so two concurrent rotations queue up and exactly one key
 * is active after each.
 */
export function makeSigningKeyRotation(deps: TRotationDeps) {
  return {
    async rotate(actor: { id: string; correlationId: string }) {
      // Outside the transaction: RSA generation is slow and must not hold the lock.
      const generated = deps.signingKeys.generate();
      return deps.db.primary.$transaction(async (tx) => {
        const keys = makeSigningKeyRepo(tx);
        await keys.lockKeySet();
        const now = new Date();
        const next = await keys.insert(generated);
        const previousKids = await keys.retireActiveExcept(next.kid, new Date(now.getTime() + RETIRING_OVERLAP_MS));
        await keys.retireExpired(now);
        await appendAuditEntry(tx, null, {
          actorType: 'user',
          actorId: actor.id,
          action: 'signing_key.rotated',
          targetType: 'signing_key',
          targetId: next.kid,
          data: { previous_kid: previousKids[0] ?? null },
          correlationId: actor.correlationId,
        });
        const all = await keys.listAll();
        return { active: next, retiring: all.filter((key) => key.status === 'retiring') };
      }, ROTATION_TX_OPTIONS);
    },
    async list(): Promise<TKeyRecord[]> {
      const keys = makeSigningKeyRepo(deps.db.primary);
      await keys.retireExpired();
      return keys.listAll();
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
