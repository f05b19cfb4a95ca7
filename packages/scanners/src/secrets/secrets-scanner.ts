import { readFile } from 'node:fs/promises';
import type { TPalisadeResult } from '@palisade/contracts';
import { clipLine, sha256Hex } from '../report';
import { isBinaryBuffer, isLockFile, walkFiles, type TWalkOptions } from '../walk-files';
import { redactSpans } from './redact';
import { SECRET_RULES, type TSecretRule } from './secret-rules';
import { lineIndexOf, lineStarts } from '../text-lines';

/** A file with more hits than this is a fixture or a dump; the first ones are enough to act on. */
const MAX_DETECTIONS_PER_FILE = 200;

type TDetection = { rule: TSecretRule; start: number; end: number; secret: string };

// The `d` flag gives capture offsets, so a secret is located exactly even when its text also occurs earlier in the match.
const COMPILED = SECRET_RULES.map((rule) => ({
  rule,
  patterns: rule.patterns.map((p) => new RegExp(p.source, p.flags.includes('d') ? p.flags : `${p.flags}d`)),
}));

function detect(text: string): TDetection[] {
  const found: TDetection[] = [];
  const overlaps = (start: number, end: number) => found.some((d) => start < d.end && d.start < end);
  for (const { rule, patterns } of COMPILED) {
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
        if (m[0].length === 0) pattern.lastIndex++;
        const group = rule.groups.find((g) => m![g] !== undefined);
        if (group === undefined || !m.indices?.[group]) continue;
        const [start, end] = m.indices[group];
        const secret = m[group];
        if (rule.accept && !rule.accept(secret, m)) continue;
        if (overlaps(start, end)) continue;
        found.push({ rule, start, end, secret });
        if (found.length >= MAX_DETECTIONS_PER_FILE) return found;
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Secrets in one file's text, as Palisade results. `relPath` is the path reported (relative to the
 * repository root). Nothing in a result carries the secret: the snippet is redacted, and the
 * fingerprint is a hash over rule, path and a hash of the secret, so the same secret in the same
 * file stays one finding when lines move above it.
 */
export function scanTextForSecrets(relPath: string, text: string): TPalisadeResult[] {
  const detections = detect(text);
  if (detections.length === 0) return [];
  const starts = lineStarts(text);
  const occurrences = new Map<string, number>();
  return detections.map((d) => {
    const startLine = lineIndexOf(starts, d.start);
    const endLine = lineIndexOf(starts, Math.max(d.start, d.end - 1));
    const lineStart = starts[startLine];
    const lineEnd = startLine + 1 < starts.length ? starts[startLine + 1] - 1 : text.length;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    // Every secret on the line is redacted, not only this one.
    const onLine = detections
      .filter((o) => o.start < lineEnd && o.end > lineStart)
      .map((o) => ({ start: o.start - lineStart, end: o.end - lineStart, secret: o.secret }));
    const snippet = clipLine(redactSpans(line, onLine), d.start - lineStart, Math.min(line.length, d.end - lineStart));
    const region = {
      path: relPath,
      start_line: startLine + 1,
      start_column: d.start - lineStart + 1,
      end_line: endLine + 1,
      // Exclusive, as in SARIF: one past the secret's last character.
      end_column: d.end - starts[endLine] + 1,
    };
    const secretHash = sha256Hex(d.secret);
    const key = `${d.rule.id}\u0000${secretHash}`;
    const occurrence = occurrences.get(key) ?? 0;
    occurrences.set(key, occurrence + 1);
    const fingerprintParts = [d.rule.id, relPath, secretHash];
    if (occurrence > 0) fingerprintParts.push(String(occurrence));
    return {
      rule_id: d.rule.id,
      rule_name: d.rule.name,
      severity: d.rule.severity,
      title: d.rule.title,
      message: `${d.rule.title} found in ${relPath} at line ${startLine + 1}. Revoke and rotate it, then remove it from the repository history.`,
      cwe: ['CWE-798'],
      location: region,
      evidence: [{ kind: 'code_span', region: { ...region }, snippet }],
      fingerprint: `secrets/${sha256Hex(...fingerprintParts)}`,
    } satisfies TPalisadeResult;
  });
}

/** Walks `dir` (skipping .git, node_modules, lock files, binaries and files over 1 MiB) and scans each text file. */
export async function scanDirectoryForSecrets(dir: string, options: TWalkOptions = {}): Promise<TPalisadeResult[]> {
  const results: TPalisadeResult[] = [];
  for await (const file of walkFiles(dir, options)) {
    if (isLockFile(file.relPath)) continue;
    const buffer = await readFile(file.absPath);
    if (isBinaryBuffer(buffer)) continue;
    results.push(...scanTextForSecrets(file.relPath, buffer.toString('utf8')));
  }
  return results;
}
