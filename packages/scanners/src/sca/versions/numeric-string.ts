/**
 * Compares two strings of decimal digits as numbers without converting them: version parts can
 * be dates or build numbers past 2^53 (Go pseudo-versions, PEP 440 releases such as 20240101).
 */
export function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
