import { createHash } from 'node:crypto';
import type { TPalisadeReport, TPalisadeResult } from '@palisade/contracts';

/** Reported as `tool.version`; bump when a rule changes what it finds. */
export const SCANNERS_VERSION = '0.1.0';

export function sha256Hex(...parts: string[]): string {
  const hash = createHash('sha256');
  // A separator that cannot occur in paths or rule ids keeps ("ab","c") and ("a","bc") apart.
  parts.forEach((part, i) => hash.update(i === 0 ? part : `\u0000${part}`));
  return hash.digest('hex');
}

export function makeReport(toolName: string, results: TPalisadeResult[]): TPalisadeReport {
  return { format: 'palisade', version: 1, tool: { name: toolName, version: SCANNERS_VERSION }, results };
}

/** Trims a long line (minified code) to a window around the interesting columns so snippets stay readable and within limits. */
export function clipLine(line: string, fromIndex: number, toIndex: number, max = 400): string {
  if (line.length <= max) return line;
  const room = Math.max(0, max - (toIndex - fromIndex));
  const start = Math.max(0, fromIndex - Math.floor(room / 2));
  const end = Math.min(line.length, start + max);
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

/** "1 secret", "2 secrets", "1,234 components": counts in summaries. */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
