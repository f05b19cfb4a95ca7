import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { TJwks } from '@palisade/contracts';
import { decryptWithKek, encryptWithKek } from './key-encryption';

export interface TSigningKeyRecord {
  kid: string;
  algorithm: string;
  publicKeyPem: string;
  /** The sealed private key (key-encryption.ts format), as bytes. */
  privateKeyEncrypted: Uint8Array;
  status: 'active' | 'retiring' | 'retired';
  createdAt: Date;
  retireAfter: Date | null;
}

export type TNewSigningKey = Pick<TSigningKeyRecord, 'kid' | 'algorithm' | 'publicKeyPem' | 'privateKeyEncrypted'>;

export interface TSigningKeyRepo {
  insert(key: TNewSigningKey): Promise<unknown>;
  active(): Promise<TSigningKeyRecord | null>;
  byKid(kid: string): Promise<TSigningKeyRecord | null>;
  listPublishable(): Promise<TSigningKeyRecord[]>;
}

// A plane re-reads the active key this often, so a rotation on the admin plane reaches every
// issuer within a minute without any cross-process signalling.
const ACTIVE_KEY_TTL_MS = 60_000;
// An unknown kid is looked up at most this often, so garbage tokens cannot hammer the database.
const MISSING_KID_TTL_MS = 10_000;

export interface TSigningKeyService {
  ensureActiveKey(): Promise<void>;
  signingKey(): Promise<{ kid: string; privateKey: KeyObject }>;
  verificationKey(kid: string): Promise<KeyObject | null>;
  jwks(): Promise<TJwks>;
  generate(): TNewSigningKey;
}

export function makeSigningKeyService({ keys, kek, now = () => Date.now() }: { keys: TSigningKeyRepo; kek: Buffer; now?: () => number }): TSigningKeyService {
  let active: { kid: string; privateKey: KeyObject; loadedAt: number } | undefined;
  const verification = new Map<string, { key: KeyObject | null; loadedAt: number; retireAfter: number | null }>();

  function generate(): TNewSigningKey {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      kid: randomUUID(),
      algorithm: 'RS256',
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyEncrypted: Buffer.from(encryptWithKek(kek, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), 'utf8'),
    };
  }

  return {
    generate,

    async ensureActiveKey() {
      if (!(await keys.active())) await keys.insert(generate());
    },

    async signingKey() {
      if (active && now() - active.loadedAt < ACTIVE_KEY_TTL_MS) return active;
      const record = await keys.active();
      if (!record) throw new Error('no active signing key: the write plane creates one at boot');
      active = { kid: record.kid, privateKey: createPrivateKey(decryptWithKek(kek, Buffer.from(record.privateKeyEncrypted).toString('utf8'))), loadedAt: now() };
      return active;
    },

    async verificationKey(kid) {
      const cached = verification.get(kid);
      const fresh = cached && (cached.key ? true : now() - cached.loadedAt < MISSING_KID_TTL_MS);
      if (cached && fresh) {
        if (cached.retireAfter !== null && now() > cached.retireAfter) return null;
        return cached.key;
      }
      const record = await keys.byKid(kid);
      const usable = record && record.status !== 'retired' ? record : null;
      verification.set(kid, {
        key: usable ? createPublicKey(usable.publicKeyPem) : null,
        loadedAt: now(),
        retireAfter: usable?.retireAfter ? usable.retireAfter.getTime() : null,
      });
      return verification.get(kid)!.key;
    },

    async jwks() {
      const records = await keys.listPublishable();
      return {
        keys: records.map((record) => {
          const jwk = createPublicKey(record.publicKeyPem).export({ format: 'jwk' }) as { n: string; e: string };
          return { kty: 'RSA' as const, kid: record.kid, use: 'sig' as const, alg: 'RS256' as const, n: jwk.n, e: jwk.e };
        }),
      };
    },
  };
}
