import { createHash } from 'node:crypto';

/**
 * Small readers for untrusted report JSON: every accessor tolerates any input type, so a field
 * of the wrong type degrades to "absent" instead of crashing the parse. Whether a missing field
 * is fatal is each parser's decision, made explicitly.
 */
export type TJsonObject = Record<string, unknown>;

/**
 * What Semgrep writes, since 1.100, for a logged-out run in place of a match fingerprint (and of
 * the matched lines): the same text on every result, so it is never an identity.
 */
export const SEMGREP_LOGGED_OUT = 'requires login';

export function obj(v: unknown): TJsonObject | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as TJsonObject) : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A non-empty (after trimming) string, else undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** A 1-based line or column: a positive integer (or its decimal string, as some tools write it), else undefined. */
export function pos(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined;
}

export function uniq<T>(values: Iterable<T | undefined>): T[] {
  const out: T[] = [];
  const seen = new Set<T>();
  for (const v of values) {
    if (v === undefined || seen.has(v)) continue;
    seen.add(v);
    out.push(v);
  }
  return out;
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}

/** The first non-blank line of a text, clipped: what a list view shows as a title. */
export function firstLine(text: string | undefined, max = 1024): string | undefined {
  if (text === undefined) return undefined;
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '');
  return line === undefined ? undefined : clip(line.trim(), max);
}

/** SARIF embedded links "[text](1)" / "[text](uri)" render as their text. */
export function stripEmbeddedLinks(text: string): string {
  if (!text.includes('](')) return text;
  return text.replace(/\[((?:[^\]\\]|\\.)*)\]\([^)\s]*\)/g, (_m, label: string) => label.replace(/\\([[\]\\])/g, '$1'));
}

const CWE_RE = /(?:^|[^a-z0-9])cwe[-_ /:]?0*(\d{1,5})(?![0-9])/i;

/**
 * "CWE-79" from the spellings tools use: "CWE-79", "cwe-079", "external/cwe/cwe-079" (CodeQL
 * tags), "CWE-327: Use of a Broken..." (Semgrep), "CWE 79"; numbers are taken as CWE ids only
 * where the field is known to hold CWE numbers (cweFromNumber).
 */
export function cweFromText(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = CWE_RE.exec(v);
  return m ? `CWE-${Number(m[1])}` : undefined;
}

export function cweFromNumber(v: unknown): string | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,5}\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isInteger(n) && n > 0) return `CWE-${n}`;
  return cweFromText(v);
}

const CVE_RE = /CVE-\d{4}-\d{4,}/gi;

export function cvesFromText(...values: unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (typeof v !== 'string' || (!v.includes('CVE') && !v.includes('cve'))) continue;
    for (const m of v.matchAll(CVE_RE)) out.push(m[0].toUpperCase());
  }
  return uniq(out);
}

/** The purl type ("npm", "maven", "deb"...), lower-cased. */
export function ecosystemFromPurl(purl: string | undefined): string | undefined {
  if (purl === undefined) return undefined;
  const m = /^pkg:\/*([a-zA-Z][a-zA-Z0-9.+-]*)\//.exec(purl);
  return m ? m[1].toLowerCase() : undefined;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A report URI as a path: file URIs lose their scheme (and a Windows drive keeps its letter),
 * percent-escapes are decoded, backslashes become slashes, leading "./" goes. Non-file schemes
 * (https:, git:) are kept whole: they are locations, just not files.
 */
export function uriToPath(uri: string): string {
  let p = uri.trim();
  const file = /^file:(?:\/\/[^/]*)?(\/.*)$/i.exec(p);
  if (file) {
    p = file[1];
    if (/^\/[a-zA-Z]:[/\\]/.test(p)) p = p.slice(1);
  } else if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(p) && !/^[a-zA-Z]:[/\\]/.test(p)) {
    return p;
  }
  if (p.includes('%')) {
    try {
      p = decodeURIComponent(p);
    } catch {
      // Not valid percent-encoding: the text is the path.
    }
  }
  p = p.replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}
