import { compareGeneric } from './generic-order';
import { compareDigits, sign } from './numeric-string';

/**
 * PEP 440 ordering for PyPI, after `packaging.version`: epoch, release (trailing zeros ignored,
 * so 1.0 == 1.0.0), then pre-release (a < b < rc), post-release and dev-release, then the local
 * label. The spellings PEP 440 normalizes are accepted (alpha → a, c/pre/preview → rc, "-1" as
 * post-release 1, separators `.`, `-`, `_`). A version that is not PEP 440 falls back to the
 * generic order, as pip's legacy versions did.
 */
const PATTERN =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?(\d+)?)?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d+)?)?(?:[-_.]?(dev)[-_.]?(\d+)?)?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/i;

const PRE_RANK: Record<string, number> = { a: 0, alpha: 0, b: 1, beta: 1, c: 2, pre: 2, preview: 2, rc: 2 };

type TPep440 = {
  epoch: string;
  release: string[];
  /** [rank, number]; undefined when there is none. */
  pre?: [number, string];
  post?: string;
  dev?: string;
  local?: string[];
};

export function parsePep440(version: string): TPep440 | null {
  const m = PATTERN.exec(version.trim());
  if (!m) return null;
  const release = m[2].split('.');
  while (release.length > 1 && /^0+$/.test(release[release.length - 1])) release.pop();
  return {
    epoch: m[1] ?? '0',
    release,
    pre: m[3] === undefined ? undefined : [PRE_RANK[m[3].toLowerCase()], m[4] ?? '0'],
    post: m[5] ?? (m[6] === undefined ? undefined : m[7] ?? '0'),
    dev: m[8] === undefined ? undefined : m[9] ?? '0',
    local: m[10] === undefined ? undefined : m[10].toLowerCase().split(/[-_.]/),
  };
}

function compareRelease(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = compareDigits(a[i] ?? '0', b[i] ?? '0');
    if (c !== 0) return c;
  }
  return 0;
}

/** packaging's _cmpkey: a dev release without pre or post sorts before every pre-release of its release. */
function preKey(v: TPep440): [number, number, string] {
  if (v.pre === undefined && v.post === undefined && v.dev !== undefined) return [-1, 0, '0'];
  if (v.pre === undefined) return [1, 0, '0'];
  return [0, v.pre[0], v.pre[1]];
}

function compareLocal(a: string[] | undefined, b: string[] | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    // Numeric segments sort after alphanumeric ones.
    const c = xn && yn ? compareDigits(x, y) : xn !== yn ? (xn ? 1 : -1) : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}

/** Absent post sorts lowest, absent dev highest. */
function compareOptional(a: string | undefined, b: string | undefined, absent: -1 | 1): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? absent : -absent;
  return compareDigits(a, b);
}

export function comparePep440(a: string, b: string): number {
  const x = parsePep440(a);
  const y = parsePep440(b);
  if (x === null || y === null) return compareGeneric(a, b);
  const [xp, xr, xn] = preKey(x);
  const [yp, yr, yn] = preKey(y);
  return sign(
    compareDigits(x.epoch, y.epoch) ||
      compareRelease(x.release, y.release) ||
      xp - yp ||
      xr - yr ||
      compareDigits(xn, yn) ||
      compareOptional(x.post, y.post, -1) ||
      compareOptional(x.dev, y.dev, 1) ||
      compareLocal(x.local, y.local),
  );
}
