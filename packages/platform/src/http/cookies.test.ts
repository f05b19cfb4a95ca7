import { parseCookieHeader } from './cookies';

describe('the cookie header', () => {
  it('reads name=value pairs as strings, trimming spaces and quotes', () => {
    expect({ ...parseCookieHeader('a=1; b = two ; c="three"') }).toEqual({ a: '1', b: 'two', c: 'three' });
  });

  it('never JSON-decodes a j: value, so a route reading a token always gets a string', () => {
    const cookies = parseCookieHeader('palisade_refresh=j:{}; other=j:123; list=j:[1]');
    expect(cookies.palisade_refresh).toBe('j:{}');
    expect(cookies.other).toBe('j:123');
    expect(cookies.list).toBe('j:[1]');
  });

  it('keeps the first of duplicate names and ignores pairs without a name', () => {
    expect({ ...parseCookieHeader('a=first; a=second; =orphan; novalue; b=') }).toEqual({ a: 'first', b: '' });
  });

  it('percent-decodes values, and keeps a malformed escape as sent instead of throwing', () => {
    expect(parseCookieHeader('a=x%20y; b=%E0%A4%A').a).toBe('x y');
    expect(parseCookieHeader('a=x%20y; b=%E0%A4%A').b).toBe('%E0%A4%A');
  });

  it('has no prototype, so __proto__ or constructor are ordinary names', () => {
    const cookies = parseCookieHeader('__proto__=x; constructor=y');
    expect(cookies.__proto__).toBe('x');
    expect(cookies.constructor).toBe('y');
    expect(parseCookieHeader(undefined).toString).toBeUndefined();
  });

  it('stops reading after 64 cookies', () => {
    const header = Array.from({ length: 100 }, (_, i) => `c${i}=${i}`).join('; ');
    expect(Object.keys(parseCookieHeader(header))).toHaveLength(64);
  });
});
