import { randomBytes } from 'node:crypto';
import { decryptWithKek, encryptWithKek } from './key-encryption';

describe('key encryption', () => {
  const kek = randomBytes(32);

  it('round-trips a private key', () => {
    expect(decryptWithKek(kek, encryptWithKek(kek, 'secret pem'))).toBe('secret pem');
  });

  it('refuses a sealed value under another key-encryption key', () => {
    expect(() => decryptWithKek(randomBytes(32), encryptWithKek(kek, 'secret pem'))).toThrow();
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = encryptWithKek(kek, 'secret pem').split('.');
    sealed[3] = Buffer.from('other text').toString('base64url');
    expect(() => decryptWithKek(kek, sealed.join('.'))).toThrow();
  });
});
