import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } from './passwords';

// Cheap parameters keep the suite fast; one test covers the production default.
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('passwords', () => {
  it('stores scrypt$N$r$p$salt$hash and verifies the right password', async () => {
    const stored = await hashPassword('correct horse battery staple', FAST);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
  });

  it('rejects a wrong password', async () => {
    const stored = await hashPassword('s3cret', FAST);
    await expect(verifyPassword('s3cret ', stored)).resolves.toBe(false);
    await expect(verifyPassword('S3cret', stored)).resolves.toBe(false);
  });

  it('salts every hash, so the same password hashes differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same', FAST), hashPassword('same', FAST)]);
    expect(a).not.toBe(b);
  });

  it('uses the default cost when none is given', async () => {
    const stored = await hashPassword('default cost');
    expect(stored.startsWith(`scrypt$${DEFAULT_SCRYPT_PARAMS.N}$8$1$`)).toBe(true);
    await expect(verifyPassword('default cost', stored)).resolves.toBe(true);
  });

  it('treats Unicode-equivalent spellings of a password as the same password', async () => {
    const stored = await hashPassword('caf\u00e9', FAST);
    await expect(verifyPassword('cafe\u0301', stored)).resolves.toBe(true);
  });

  it('returns false, never throws, for malformed or hostile hashes', async () => {
    const hostile = [
      '',
      'bcrypt$2b$10$abc',
      'scrypt$1024$8$1$salt',
      'scrypt$1000$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA', // N not a power of two
      'scrypt$1073741824$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA', // N far too large
      'scrypt$1024$8$1$not base64!$aGFzaGhhc2hoYXNoaGFzaA',
    ];
    for (const stored of hostile) await expect(verifyPassword('x', stored)).resolves.toBe(false);
  });

  it('refuses to hash an empty password', async () => {
    await expect(hashPassword('', FAST)).rejects.toThrow(TypeError);
  });

  it('asks for a rehash when the stored cost is below the current one', async () => {
    const weak = await hashPassword('pw', FAST);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(weak, FAST)).toBe(false);
    expect(needsRehash('garbage')).toBe(true);
  });
});
