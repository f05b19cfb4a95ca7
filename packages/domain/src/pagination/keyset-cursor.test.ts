import { decodeCursor, encodeCursor, filterDigest } from './keyset-cursor';

describe('keyset cursors', () => {
  it('round-trips a position for the same filters, whatever their order', () => {
    const cursor = encodeCursor({ key: '0190a7b2-0000-7000-8000-000000000001' }, { severity: ['high', 'critical'], tool: 'semgrep' });
    expect(decodeCursor(cursor, { tool: 'semgrep', severity: ['critical', 'high'], status: undefined })).toEqual({
      key: '0190a7b2-0000-7000-8000-000000000001',
    });
  });

  it('refuses a cursor replayed with other filters', () => {
    const cursor = encodeCursor({ key: 'x' }, { severity: ['high'] });
    expect(() => decodeCursor(cursor, { severity: ['low'] })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => decodeCursor(cursor, {})).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it('refuses garbage with a 422 naming query.cursor', () => {
    for (const bad of ['not-base64-json', Buffer.from('{"v":2,"k":"x","f":"y"}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      expect(() => decodeCursor(bad, {})).toThrow(expect.objectContaining({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'query.cursor' })] }));
    }
  });

  it('digests nested filter objects independently of key order', () => {
    expect(filterDigest({ entity: { type: 'image', id: 'a' } })).toBe(filterDigest({ entity: { id: 'a', type: 'image' } }));
  });
});
