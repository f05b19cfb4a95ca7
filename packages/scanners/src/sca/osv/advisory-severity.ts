import type { TSeverity } from '@palisade/contracts';
import { cvss3BaseScore, maxSeverity, severityFromCvssScore, severityFromLabel } from '@palisade/domain/findings/severity';
import { asObject, asString, type TJson } from '../lockfiles/locked-package';

/**
 * An advisory's severity, in the order the databases are trusted:
 * 1. the database's own rating, `database_specific.severity` (GitHub: CRITICAL/HIGH/MODERATE/LOW);
 * 2. the highest CVSS v3 base score among `severity[]` vectors (computed from the vector, which
 *    is all OSV gives), or a bare numeric score;
 * 3. a rating on an affected entry (`ecosystem_specific`/`database_specific.severity`, as some
 *    distributions write it).
 * With none of these the platform's rule for unrated results applies (domain findings/severity):
 * `info`, since nothing vouches for a higher level. CVSS v4 vectors are not scored here.
 */
export function advisorySeverity(doc: TJson): TSeverity {
  const own = severityFromLabel(asObject(doc.database_specific)?.severity);
  if (own !== undefined) return own;
  let best: TSeverity | undefined;
  for (const entry of Array.isArray(doc.severity) ? doc.severity : []) {
    const score = asString(asObject(entry)?.score)?.trim();
    if (score === undefined) continue;
    const base = /^\d+(\.\d+)?$/.test(score) ? Number(score) : cvss3BaseScore(score);
    const level = base === undefined ? undefined : severityFromCvssScore(base);
    if (level !== undefined) best = best === undefined ? level : maxSeverity(best, level);
  }
  if (best !== undefined) return best;
  for (const affected of Array.isArray(doc.affected) ? doc.affected : []) {
    const a = asObject(affected);
    for (const where of [a?.ecosystem_specific, a?.database_specific]) {
      const level = severityFromLabel(asObject(where)?.severity);
      if (level !== undefined) best = best === undefined ? level : maxSeverity(best, level);
    }
  }
  return best ?? 'info';
}
