import type { TFinding } from '@palisade/contracts';
import { formatTable, truncate } from './table.format';

const TITLE_WIDTH = 60;
const LOCATION_WIDTH = 50;

/** Where a finding points, as short as a table cell allows: file:line, package@version or the logical place. */
export function formatLocation(location: TFinding['location']): string {
  if (!location) return '-';
  if (location.path) return location.start_line ? `${location.path}:${location.start_line}` : location.path;
  if (location.package) return location.package.version ? `${location.package.name}@${location.package.version}` : location.package.name;
  return location.logical ?? '-';
}

export function formatFindingsTable(findings: readonly TFinding[]): string {
  return formatTable(
    ['SEVERITY', 'STATUS', 'TITLE', 'LOCATION', 'ID'],
    findings.map((finding) => [
      finding.severity,
      finding.status,
      truncate(finding.title.replace(/\s+/g, ' '), TITLE_WIDTH),
      truncate(formatLocation(finding.location), LOCATION_WIDTH),
      finding.finding_id,
    ]),
  );
}
