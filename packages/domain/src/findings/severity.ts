import type { TSeverity } from '@palisade/contracts';

/**
 * Every tool's severity vocabulary mapped onto Palisade's five levels, in one place so that the
 * same word means the same thing whichever parser met it.
 */
export const SEVERITY_ORDER: Record<TSeverity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

export function maxSeverity(a: TSeverity, b: TSeverity): TSeverity {
  return SEVERITY_ORDER[a] >= SEVERITY_ORDER[b] ? a : b;
}

/**
 * CVSS (v2, v3.x, v4) qualitative bands: 0 none, 0.1-3.9 low, 4.0-6.9 medium, 7.0-8.9 high,
 * 9.0-10.0 critical. GitHub reads SARIF `security-severity` with the same bands.
 */
export function severityFromCvssScore(score: number): TSeverity | undefined {
  if (!Number.isFinite(score) || score < 0 || score > 10) return undefined;
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
}

/** SARIF `properties["security-severity"]`: a CVSS-like score, as a string or a number. */
export function severityFromSecuritySeverity(value: unknown): TSeverity | undefined {
  const score = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return severityFromCvssScore(score);
}

/**
 * SARIF `level`: error → high, warning → medium, note → low, none → info. ("error" is
 * "serious problem", not "critical": the worst band is reserved for scores that say so.)
 */
export function severityFromSarifLevel(level: unknown): TSeverity | undefined {
  switch (level) {
    case 'error':
      return 'high';
    case 'warning':
      return 'medium';
    case 'note':
      return 'low';
    case 'none':
      return 'info';
    default:
      return undefined;
  }
}

/**
 * A priority from 1 (most urgent) to 5, as PMD rates its rules (High, Medium High, Medium,
 * Medium Low, Low) in `properties.priority`, its SARIF having no level.
 */
export function severityFromPriority(priority: unknown): TSeverity | undefined {
  const n = typeof priority === 'number' ? priority : typeof priority === 'string' && /^\s*[1-5]\s*$/.test(priority) ? Number(priority) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 5) return undefined;
  return n <= 2 ? 'high' : n === 3 ? 'medium' : 'low';
}

/**
 * SARIF `rank` (0-100, a priority; -1 means none), used only when no level is given anywhere:
 * the same bands as a CVSS score scaled by ten.
 */
export function severityFromSarifRank(rank: unknown): TSeverity | undefined {
  if (typeof rank !== 'number' || rank < 0 || rank > 100) return undefined;
  return severityFromCvssScore(rank / 10);
}

/**
 * The words tools use: CRITICAL/HIGH/MEDIUM/LOW (Trivy, Grype, CycloneDX, OSV, Semgrep >= 1.x),
 * moderate (npm, GitHub advisories), negligible/unknown/none (Grype, Trivy, CycloneDX),
 * ERROR/WARNING (Semgrep's classic levels, like SARIF's), info/informational.
 * Unknown and unrated become `info`: nothing vouches for a higher level.
 */
export function severityFromLabel(label: unknown): TSeverity | undefined {
  if (typeof label !== 'string') return undefined;
  switch (label.trim().toLowerCase()) {
    case 'critical':
      return 'critical';
    case 'high':
    case 'error':
    case 'important':
      return 'high';
    case 'medium':
    case 'moderate':
    case 'warning':
      return 'medium';
    case 'low':
    case 'note':
    case 'minor':
      return 'low';
    case 'info':
    case 'informational':
    case 'negligible':
    case 'none':
    case 'unknown':
    case 'unspecified':
      return 'info';
    default:
      return undefined;
  }
}

/**
 * Tool-specific tables; each says where it departs from severityFromLabel.
 * Semgrep's INFO is a finding of low importance (like SARIF note), not "informational".
 */
export const toolSeverity = {
  trivy: (s: unknown): TSeverity => severityFromLabel(s) ?? 'info',
  grype: (s: unknown): TSeverity => severityFromLabel(s) ?? 'info',
  npmAudit: (s: unknown): TSeverity => severityFromLabel(s) ?? 'info',
  semgrep: (s: unknown): TSeverity => (typeof s === 'string' && s.toUpperCase() === 'INFO' ? 'low' : severityFromLabel(s) ?? 'medium'),
  cyclonedx: (s: unknown): TSeverity | undefined => severityFromLabel(s),
  /** A leaked credential is high unless the tool says otherwise (gitleaks has no severity). */
  secret: (s: unknown): TSeverity => severityFromLabel(s) ?? 'high',
} as const;

/**
 * Base score of a CVSS v3.x vector ("CVSS:3.1/AV:N/AC:L/..."), per the FIRST specification,
 * for reports that give only a vector (OSV). Undefined for anything else.
 */
export function cvss3BaseScore(vector: string): number | undefined {
  const m = /^CVSS:3\.[01]\/(.*)$/.exec(vector.trim());
  if (!m) return undefined;
  const metrics = new Map<string, string>();
  for (const part of m[1].split('/')) {
    const [k, v] = part.split(':');
    if (k && v) metrics.set(k, v);
  }
  const W: Record<string, Record<string, number>> = {
    AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
    AC: { L: 0.77, H: 0.44 },
    UI: { N: 0.85, R: 0.62 },
    C: { H: 0.56, L: 0.22, N: 0 },
    I: { H: 0.56, L: 0.22, N: 0 },
    A: { H: 0.56, L: 0.22, N: 0 },
  };
  const scope = metrics.get('S');
  const get = (k: string): number | undefined => W[k][metrics.get(k) ?? ''];
  const prRaw = metrics.get('PR');
  const pr = prRaw === 'N' ? 0.85 : prRaw === 'L' ? (scope === 'C' ? 0.68 : 0.62) : prRaw === 'H' ? (scope === 'C' ? 0.5 : 0.27) : undefined;
  const [av, ac, ui, c, i, a] = ['AV', 'AC', 'UI', 'C', 'I', 'A'].map(get);
  if (av === undefined || ac === undefined || ui === undefined || c === undefined || i === undefined || a === undefined || pr === undefined || (scope !== 'U' && scope !== 'C')) return undefined;
  const iss = 1 - (1 - c) * (1 - i) * (1 - a);
  const impact = scope === 'U' ? 6.42 * iss : 7.52 * (iss - 0.029) - 3.25 * Math.pow(iss - 0.02, 15);
  const exploitability = 8.22 * av * ac * pr * ui;
  if (impact <= 0) return 0;
  const raw = scope === 'U' ? Math.min(impact + exploitability, 10) : Math.min(1.08 * (impact + exploitability), 10);
  // CVSS 3.1 "Roundup": the smallest one-decimal number >= raw, robust to float noise.
  const int = Math.round(raw * 100000);
  return int % 10000 === 0 ? int / 100000 : (Math.floor(int / 10000) + 1) / 10;
}
