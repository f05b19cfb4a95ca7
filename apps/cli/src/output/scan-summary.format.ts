import type { TScan } from '@palisade/contracts';
import { formatTable } from './table.format';

/** One line while waiting: the scan's status and each tool's. */
export function formatScanProgress(scan: TScan, elapsedSeconds: number): string {
  const tools = scan.tools.length
    ? scan.tools.map((tool) => `${tool.tool} ${tool.status}`).join(', ')
    : // An automatic plan for a repository names its tools only once the worker has the checkout.
      'planning tools';
  return `scan ${scan.status} (${Math.round(elapsedSeconds)} s): ${tools}`;
}

/** The end of a wait: the outcome, then each tool with its status, findings and error. */
export function formatScanSummary(scan: TScan, waited: { timedOut: boolean; seconds: number }): string {
  const headline = waited.timedOut
    ? `scan ${scan.scan_id}: still ${scan.status} after ${Math.round(waited.seconds)} s (stopped waiting)`
    : `scan ${scan.scan_id}: ${scan.status}, ${scan.findings_count} finding${scan.findings_count === 1 ? '' : 's'}`;
  if (scan.tools.length === 0) return `${headline}\n`;
  // The ERROR column only when some tool has one: an empty column is just noise.
  const withErrors = scan.tools.some((tool) => tool.error);
  const rows = scan.tools.map((tool) => [
    tool.tool,
    tool.status,
    String(tool.findings_count),
    ...(withErrors ? [tool.error ? `${tool.error.error_code}: ${tool.error.message}` : ''] : []),
  ]);
  const table = formatTable(['TOOL', 'STATUS', 'FINDINGS', ...(withErrors ? ['ERROR'] : [])], rows)
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
  return `${headline}\n${table}`;
}
