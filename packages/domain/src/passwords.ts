// Password hashing with scrypt (node:crypto), stored as `scrypt$N$r$p$salt$hash` with salt and
// hash in base64url. The parameters travel with each hash, so raising the cost later only needs
// needsRehash() at sign-in, never a migration.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export type TScryptParams = { N: number; r: number; p: number };

// N = 2^15, r = 8: 32 MiB and roughly 50-100 ms per hash on a server core, a balance between
// OWASP's guidance (2^17) and a sign-in endpoint that must survive bursts.
export const DEFAULT_SCRYPT_PARAMS: Readonly<TScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });

const SALT_BYTES = 16;
const KEY_BYTES = 32;
// Bounds on parameters read back from storage, so a corrupted row cannot make verification
// allocate gigabytes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;
const MAX_PASSWORD_LENGTH = 1024;

export async function hashPassword(password: string, params: TScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  assertPassword(password);
  assertParams(params);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for anything that is not a well-formed hash; never throws. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return false;
  const parsed = parseHash(stored);
  if (!parsed) return false;
  try {
    const key = await derive(password, parsed.salt, parsed.hash.length, parsed.params);
    return timingSafeEqual(key, parsed.hash);
  } catch {
    return false;
  }
}

/** True when the stored hash is malformed or weaker than `params`. */
export function needsRehash(stored: string, params: TScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  return parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}

function parseHash(stored: string): { params: TScryptParams; salt: Buffer; hash: Buffer } | null {
  if (typeof stored !== 'string') return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^[0-9]{1,8}$/.test(part) ? Number(part) : NaN));
  const params = { N, r, p };
  if (!validParams(params)) return null;
  const salt = decode(parts[4]);
  const hash = decode(parts[5]);
  if (!salt || !hash || salt.length < 8 || hash.length < 16 || hash.length > 128) return null;
  return { params, salt, hash };
}

function decode(part: string): Buffer | null {
  return /^[A-Za-z0-9_-]+$/.test(part) ? Buffer.from(part, 'base64url') : null;
}

function validParams({ N, r, p }: TScryptParams): boolean {
  const isPowerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  return isPowerOfTwo && N <= MAX_N && Number.isInteger(r) && r >= 1 && r <= MAX_R && Number.isInteger(p) && p >= 1 && p <= MAX_P;
}

function assertParams(params: TScryptParams): void {
  if (!validParams(params)) throw new RangeError('scrypt parameters out of range');
}

function assertPassword(password: string): void {
  if (typeof password !== 'string' || password.length === 0) throw new TypeError('password must be a non-empty string');
  if (password.length > MAX_PASSWORD_LENGTH) throw new RangeError(`password longer than ${MAX_PASSWORD_LENGTH} characters`);
}

function derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: TScryptParams): Promise<Buffer> {
  // Node refuses anything above 32 MiB by default, exactly the default cost: give it headroom.
  const maxmem = 256 * N * r;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { N, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}
