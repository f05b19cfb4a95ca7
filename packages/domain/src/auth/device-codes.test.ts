import { formatUserCode, generateDeviceCode, generateUserCode, hashDeviceCode, normalizeUserCode, USER_CODE_ALPHABET } from './device-codes';

describe('device and user codes', () => {
  it('draws user codes of eight characters from the unambiguous alphabet only', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateUserCode();
      expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
    }
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY01]/);
  });

  it('shows the code as XXXX-XXXX and reads it back regardless of case, dashes and spaces', () => {
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normalizeUserCode(' BcDf GhJk ')).toBe('BCDFGHJK');
    expect(normalizeUserCode('BCDFGHJK')).toBe('BCDFGHJK');
  });

  it('refuses anything that cannot be a user code without looking it up', () => {
    expect(normalizeUserCode('BCDF-GHJ')).toBeNull();
    expect(normalizeUserCode('BCDF-GHJKL')).toBeNull();
    expect(normalizeUserCode('ABCD-EFGH')).toBeNull();
    expect(normalizeUserCode('BCDF-GHJ0')).toBeNull();
  });

  it('makes device codes of 256 bits and stores only their digest', () => {
    const code = generateDeviceCode();
    expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    expect(generateDeviceCode()).not.toBe(code);
    expect(hashDeviceCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashDeviceCode(code)).not.toContain(code);
  });
});
