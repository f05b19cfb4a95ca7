import type { Prisma, SigningKey } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TInsertSigningKey = {
  kid: string;
  algorithm: string;
  publicKeyPem: string;
  /** Already encrypted by the caller's key-encryption key. */
  privateKeyEncrypted: Uint8Array;
  retireAfter?: Date | null;
};

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { kid: 'desc' as const }];

/** Runs `work` in a transaction: the caller's when `db` already is one, else a new one. */
function inTransaction<T>(db: TDbClient, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return '$transaction' in db ? db.$transaction(work) : work(db);
}

function insertKey(db: TDbClient, input: TInsertSigningKey): Promise<SigningKey> {
  return db.signingKey.create({
    data: {
      kid: input.kid,
      algorithm: input.algorithm,
      publicKeyPem: input.publicKeyPem,
      privateKeyEncrypted: Uint8Array.from(input.privateKeyEncrypted),
      retireAfter: input.retireAfter ?? null,
      status: 'active',
    },
  });
}

/** Serializes changes to which key is active (rotations, the first key at boot) until the transaction ends. */
async function lockKeySet(db: TDbClient): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('signing_keys'))`;
}

// Platform-wide (not tenant-scoped): the keys that sign every access token.
export function makeSigningKeyRepo(db: TDbClient) {
  return {
    insert(input: TInsertSigningKey): Promise<SigningKey> {
      return insertKey(db, input);
    },
    /** The first key of a deployment: inserted only when no key is active, so planes booting together create one. */
    insertIfNoneActive(input: TInsertSigningKey): Promise<boolean> {
      return inTransaction(db, async (tx) => {
        await lockKeySet(tx);
        if (await tx.signingKey.count({ where: { status: 'active' } })) return false;
        await insertKey(tx, input);
        return true;
      });
    },
    /** Inside a transaction: holds the key set until it ends (see lockKeySet). */
    lockKeySet(): Promise<void> {
      return lockKeySet(db);
    },
    /** The key new tokens are signed with: the newest active one. */
    active(): Promise<SigningKey | null> {
      return db.signingKey.findFirst({ where: { status: 'active' }, orderBy: NEWEST_FIRST });
    },
    /** The kid of active(), without reading the sealed private key. */
    async activeKid(): Promise<string | null> {
      const row = await db.signingKey.findFirst({ where: { status: 'active' }, orderBy: NEWEST_FIRST, select: { kid: true } });
      return row?.kid ?? null;
    },
    byKid(kid: string): Promise<SigningKey | null> {
      return db.signingKey.findUnique({ where: { kid } });
    },
    /** Keys whose public half belongs in the JWKS: active ones and retiring ones still verifying. */
    listPublishable(): Promise<SigningKey[]> {
      return db.signingKey.findMany({
        where: { status: { in: ['active', 'retiring'] } },
        orderBy: [{ createdAt: 'desc' }, { kid: 'asc' }],
      });
    },
    /** Every key, newest first: the admin view (public information only is shown). */
    listAll(): Promise<SigningKey[]> {
      return db.signingKey.findMany({ orderBy: [{ createdAt: 'desc' }, { kid: 'asc' }] });
    },
    /** Stops signing with the key; it keeps verifying until `retireAfter`. */
    async markRetiring(kid: string, retireAfter: Date): Promise<boolean> {
      const { count } = await db.signingKey.updateMany({
        where: { kid, status: 'active' },
        data: { status: 'retiring', retireAfter },
      });
      return count > 0;
    },
    /** Moves every active key but `kid` to retiring: after a rotation exactly one key signs. */
    async retireActiveExcept(kid: string, retireAfter: Date): Promise<string[]> {
      const previous = await db.signingKey.findMany({
        where: { status: 'active', kid: { not: kid } },
        orderBy: NEWEST_FIRST,
        select: { kid: true },
      });
      await db.signingKey.updateMany({
        where: { kid: { in: previous.map((row) => row.kid) }, status: 'active' },
        data: { status: 'retiring', retireAfter },
      });
      return previous.map((row) => row.kid);
    },
    /** Retires every retiring key past its retire_after; returns how many. */
    async retireExpired(now: Date = new Date()): Promise<number> {
      const { count } = await db.signingKey.updateMany({
        where: { status: 'retiring', retireAfter: { lte: now } },
        data: { status: 'retired' },
      });
      return count;
    },
  };
}

export type SigningKeyRepo = ReturnType<typeof makeSigningKeyRepo>;
