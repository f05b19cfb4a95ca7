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
  /** Inserts the key as the active one unless a key already is active (two planes may boot at once). */
  insertIfNoneActive(key: TNewSigningKey): Promise<boolean>;
  /** The kid new tokens are signed with. */
  activeKid(): Promise<string | null>;
  byKid(kid: string): Promise<TSigningKeyRecord | null>;
  listPublishable(): Promise<TSigningKeyRecord[]>;
}

// How long a verifier trusts what it read about a kid (its status and retire_after). A rotation
// or an emergency retirement reaches every verifier within this time; meanwhile a busy kid costs
// one primary-key read per interval, not one per request.
export const KEY_STATE_TTL_MS = 5_000;
// An unknown kid is looked up at most this often, so a replayed garbage token cannot hammer the database.
const MISSING_KID_TTL_MS = 10_000;
// Random kids must not grow the cache without bound; real deployments have a handful of keys.
const MAX_CACHED_KIDS = 1_000;

export interface TSigningKeyService {
  ensureActiveKey(): Promise<void>;
  signingKey(): Promise<{ kid: string; privateKey: KeyObject }>;
  verificationKey(kid: string): Promise<KeyObject | null>;
  jwks(): Promise<TJwks>;
  generate(): TNewSigningKey;
}

/** What a verifier last read about a kid: its public key (null when unknown or retired) and retire_after. */
interface TKeyState {
  key: KeyObject | null;
  retireAfter: number | null;
  checkedAt: number;
}

export function makeSigningKeyService({ keys, kek, now = () => Date.now() }: { keys: TSigningKeyRepo; kek: Buffer; now?: () => number }): TSigningKeyService {
  const states = new Map<string, TKeyState>();
  const loading = new Map<string, Promise<TKeyState>>();
  // Decrypting costs more than the kid lookup, and a kid's private key never changes: keep the latest.
  let privateKey: { kid: string; key: KeyObject } | undefined;

  function generate(): TNewSigningKey {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      kid: randomUUID(),
      algorithm: 'RS256',
      publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyEncrypted: Buffer.from(encryptWithKek(kek, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), 'utf8'),
    };
  }

  function isFresh(state: TKeyState): boolean {
    return now() - state.checkedAt < (state.key ? KEY_STATE_TTL_MS : MISSING_KID_TTL_MS);
  }

  function remember(kid: string, state: TKeyState): TKeyState {
    states.delete(kid);
    if (states.size >= MAX_CACHED_KIDS) states.delete(states.keys().next().value!);
    states.set(kid, state);
    return state;
  }

  async function load(kid: string, stale: TKeyState | undefined): Promise<TKeyState> {
    let record: TSigningKeyRecord | null;
    try {
      record = await keys.byKid(kid);
    } catch (error) {
      // A database blip must not sign everyone out: what we knew still holds, retire_after included.
      if (stale) return stale;
      throw error;
    }
    const usable = record && record.status !== 'retired' ? record : null;
    return remember(kid, {
      key: usable ? (stale?.key ?? createPublicKey(usable.publicKeyPem)) : null,
      retireAfter: usable?.retireAfter ? usable.retireAfter.getTime() : null,
      checkedAt: now(),
    });
  }

  /** The kid's state, re-read when older than its TTL; concurrent callers share one read. */
  function keyState(kid: string): Promise<TKeyState> {
    const cached = states.get(kid);
    if (cached && isFresh(cached)) return Promise.resolve(cached);
    let pending = loading.get(kid);
    if (!pending) {
      pending = load(kid, cached).finally(() => loading.delete(kid));
      loading.set(kid, pending);
    }
    return pending;
  }

  async function privateKeyOf(kid: string): Promise<KeyObject> {
    if (privateKey?.kid === kid) return privateKey.key;
    const record = await keys.byKid(kid);
    if (!record) throw new Error(`signing key ${kid} vanished between reads`);
    privateKey = { kid, key: createPrivateKey(decryptWithKek(kek, Buffer.from(record.privateKeyEncrypted).toString('utf8'))) };
    return privateKey.key;
  }

  return {
    generate,

    async ensureActiveKey() {
      if (!(await keys.activeKid())) await keys.insertIfNoneActive(generate());
    },

    // The active kid is read at every issuance (issuance is rare: sign-in, refresh, exchange), so
    // every process signs with the new key as soon as a rotation commits.
    async signingKey() {
      const kid = await keys.activeKid();
      if (!kid) throw new Error('no active signing key: the write plane creates one at boot');
      return { kid, privateKey: await privateKeyOf(kid) };
    },

    async verificationKey(kid) {
      const state = await keyState(kid);
      if (state.retireAfter !== null && now() >= state.retireAfter) return null;
      return state.key;
    },

    async jwks() {
      const records = (await keys.listPublishable()).filter((record) => !record.retireAfter || record.retireAfter.getTime() > now());
      return {
        keys: records.map((record) => {
          const jwk = createPublicKey(record.publicKeyPem).export({ format: 'jwk' }) as { n: string; e: string };
          return { kty: 'RSA' as const, kid: record.kid, use: 'sig' as const, alg: 'RS256' as const, n: jwk.n, e: jwk.e };
        }),
      };
    },
  };
}
