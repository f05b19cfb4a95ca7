import type { TPalisadeResult, TSeverity } from '@palisade/contracts';
import { sha256Hex } from '../report';
import type { TIacRule } from './iac-rules';

export type TPathSegment = string | number;

/** `['spec', 'containers', 0, 'securityContext']` → `spec.containers[0].securityContext`; odd keys are bracket-quoted. */
export function formatPath(segments: TPathSegment[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

export type TIacHit = {
  rule: TIacRule;
  file: string;
  path: TPathSegment[];
  line?: number;
  actual?: string;
  expected?: string;
  message?: string;
  severity?: TSeverity;
  /**
   * What the finding is about beyond file and path (a resource's kind/namespace/name, a URL), so
   * that two documents in one file stay apart while the fingerprint ignores line numbers.
   */
  identity?: string;
};

export function iacResult(hit: TIacHit): TPalisadeResult {
  const configPath = formatPath(hit.path);
  return {
    rule_id: hit.rule.id,
    rule_name: hit.rule.name,
    severity: hit.severity ?? hit.rule.severity,
    title: hit.rule.title,
    ...(hit.message ? { message: hit.message } : {}),
    ...(hit.rule.cwe ? { cwe: [...hit.rule.cwe] } : {}),
    location: { path: hit.file, ...(hit.line ? { start_line: hit.line } : {}) },
    evidence: [
      {
        kind: 'config_path',
        file: hit.file,
        path: configPath,
        ...(hit.line ? { line: hit.line } : {}),
        ...(hit.actual !== undefined ? { actual: hit.actual.slice(0, 2048) } : {}),
        ...(hit.expected !== undefined ? { expected: hit.expected } : {}),
      },
    ],
    fingerprint: `iac/${sha256Hex(hit.rule.id, hit.file, hit.identity ?? '', configPath)}`,
  };
}
