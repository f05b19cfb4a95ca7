import type { SigningKey } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TInsertSigningKey = {
  kid: string;
  algorithm: string;
  publicKeyPem: string;
  /** Already encrypted by the caller's key-encryption key. */
  privateKeyEncrypted: Uint8Array;
  retireAfter?: Date | null;
};

// Platform-wide (not tenant-scoped): the keys that sign every access token.
export function makeSigningKeyRepo(db: TDbClient) {
  return {
    insert(input: TInsertSigningKey): Promise<SigningKey> {
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
    },
    /** The key new tokens are signed with: the newest active one. */
    active(): Promise<SigningKey | null> {
      return db.signingKey.findFirst({ where: { status: 'active' }, orderBy: [{ createdAt: 'desc' }, { kid: 'desc' }] });
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
