import { uuidv7, uuidv7Into } from './ids';

describe('uuidv7', () => {
  it('is a version 7, RFC 9562 variant UUID', () => {
    expect(uuidv7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('starts with the creation time in milliseconds', () => {
    const at = Date.now() + 1000;
    const hex = at.toString(16).padStart(12, '0');
    expect(uuidv7(at).startsWith(`${hex.slice(0, 8)}-${hex.slice(8)}-7`)).toBe(true);
  });

  it('sorts in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('uuidv7Into', () => {
  it('writes the same id it returns, as 16 bytes, in sequence with uuidv7()', () => {
    const target = Buffer.alloc(20);
    const before = uuidv7();
    const id = uuidv7Into(target, 2);
    expect(target.subarray(2, 18).toString('hex')).toBe(id.replaceAll('-', ''));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(id > before).toBe(true);
    expect(uuidv7() > id).toBe(true);
  });
});
