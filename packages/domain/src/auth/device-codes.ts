// The two secrets of the device authorization grant (RFC 8628 section 6.1): the device code
// stays on the device and must be unguessable; the user code is typed by a human, so it is short
// and drawn from an alphabet that survives being read aloud or copied by hand.
import { createHash, randomBytes, randomInt } from 'node:crypto';

/** Consonants only (no vowels, so no words) and none that are misread as digits or each other. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
// 20^8 ≈ 2.6e10 codes against a handful alive at a time and rate-limited guesses: RFC 8628
// section 5.1 asks for about this much entropy.

// 32 random bytes: the device code is a bearer secret for the token endpoint.
const DEVICE_CODE_BYTES = 32;

export function generateDeviceCode(): string {
  return randomBytes(DEVICE_CODE_BYTES).toString('base64url');
}

/** Only this digest is stored: a leaked store does not let anyone redeem a pending grant. */
export function hashDeviceCode(deviceCode: string): string {
  return createHash('sha256').update(deviceCode, 'utf8').digest('hex');
}

/** Eight characters, unformatted (`BCDFGHJK`); see formatUserCode for display. */
export function generateUserCode(pick: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1) code += USER_CODE_ALPHABET[pick(USER_CODE_ALPHABET.length)];
  return code;
}

/** `BCDFGHJK` → `BCDF-GHJK`, the form shown to the user. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What a human typed, in the stored form: case, dashes and spaces do not matter. Null when it
 * cannot be a user code at all, so a typo is refused without a lookup.
 */
export function normalizeUserCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return null;
  return code;
}
