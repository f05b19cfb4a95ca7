import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    const value = { b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } };
    expect(canonicalJson(value)).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it('gives the same bytes for the same value built in a different key order', () => {
    expect(canonicalJson({ x: 1, y: { p: 1, q: 2 } })).toBe(canonicalJson({ y: { q: 2, p: 1 }, x: 1 }));
  });

  it('is the same as JSON.stringify with sorted keys for plain JSON', () => {
    const value = { title: 'SQL injection in "login"\n', severity: 'high', n: -0.5, big: 1e21, list: [] };
    const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(canonicalJson(value)).toBe(JSON.stringify(sorted));
  });

  it('drops undefined object members and writes undefined array items as null', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it('writes dates through toJSON', () => {
    expect(canonicalJson({ at: new Date('2025-01-02T03:04:05.678Z') })).toBe('{"at":"2025-01-02T03:04:05.678Z"}');
  });

  it('keeps non-ASCII as UTF-8 unless asked to escape it the way Python does', () => {
    expect(canonicalJson({ t: 'café ☕' })).toBe('{"t":"café ☕"}');
    expect(canonicalJson({ t: 'café ☕' }, { asciiOnly: true })).toBe('{"t":"caf\\u00e9 \\u2615"}');
  });

  it('refuses values without a single JSON spelling', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson({ n: Infinity })).toThrow(/non-finite/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson(undefined)).toThrow(/no JSON representation/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"k":1},"b":{"k":1}}');
  });
});
