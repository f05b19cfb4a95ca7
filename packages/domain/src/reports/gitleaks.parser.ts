import type { TEvidence } from '@palisade/contracts';
import { toolSeverity } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { defined } from './package-vuln';
import { shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { arr, pos, sha256Hex, str, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * Gitleaks JSON: v8 (PascalCase: RuleID, File, StartLine, Secret, Match, Commit, Fingerprint),
 * v7 (lower-case: rule, file, lineNumber, offender, line, commit) and v7-era reports without
 * lineNumber; `[]` or the literal `null` when nothing leaked. Streams the top-level array.
 *
 * Identity: a leak is (rule, file, hash of the secret). The same secret found again in another
 * commit of the history is the same finding, as it is one credential to rotate; the commit-
 * specific Fingerprint of v8 is therefore not used. The secret itself is never kept: snippets
 * have it replaced by REDACTED (gitleaks --redact's marker), or are dropped when that cannot be
 * done safely.
 */
export function makeGitleaksHandler(options: TParseReportOptions): TReportHandler {
  const tool = pickToolName(options.tool, 'gitleaks', 'gitleaks');

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    if (path.length === 0) {
      if (kind === 'null') return 'skip' as const;
      if (kind !== 'array') throw shapeError(path, 'a gitleaks report must be a JSON array (or null)');
      return 'stream' as const;
    }
    if (kind !== 'object') throw shapeError(path, 'each leak must be an object');
    return 'capture' as const;
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    if (ev.type !== 'value') return;
    const l = ev.value as TJsonObject;
    const ruleId = str(l.RuleID) ?? str(l.rule) ?? 'gitleaks-secret';
    const description = str(l.Description) ?? str(l.rule) ?? ruleId;
    const file = str(l.File) ?? str(l.file);
    const secret = str(l.Secret) ?? str(l.offender);
    const startLine = pos(l.StartLine) ?? pos(l.lineNumber);
    const endLine = pos(l.EndLine) ?? startLine;
    const commit = str(l.Commit) ?? str(l.commit);
    const evidence: TEvidence[] = [];
    const snippet = redact(str(l.Match) ?? str(l.line) ?? str(l.Line), secret);
    // `gitleaks --redact` writes "REDACTED" for every secret: then the leak is told apart by
    // rule and position instead (a hash of the marker would make every leak of a file one).
    const redacted = secret === undefined || /^(?:REDACTED|\*+)$/.test(secret.trim());
    if (file !== undefined) {
      evidence.push(defined({ kind: 'code_span' as const, region: defined({ path: file, start_line: startLine, end_line: endLine, start_column: pos(l.StartColumn), end_column: pos(l.EndColumn) }), snippet }));
    }
    const tags = typeof l.tags === 'string' ? l.tags.split(/,\s*/) : arr(l.Tags ?? l.tags).map(str);
    out.push({
      type: 'finding',
      finding: defined({
        tool,
        source_tool: { name: 'gitleaks' },
        rule: { id: ruleId, name: description, cwe: [], cve: [] },
        severity: toolSeverity.secret(undefined),
        title: file === undefined ? `${shortLabel(description, ruleId)} secret` : `${shortLabel(description, ruleId)} secret in ${file}`,
        message: [
          `Secret matched rule ${ruleId}`,
          commit === undefined ? undefined : `commit ${commit}`,
          str(l.Author) ?? str(l.author),
          tags.filter((t) => t !== undefined && t !== '').length > 0 ? `tags: ${tags.filter((t) => t).join(', ')}` : undefined,
        ]
          .filter((x) => x !== undefined)
          .join('; '),
        location: defined({ path: file, start_line: startLine, end_line: endLine, start_column: pos(l.StartColumn), end_column: pos(l.EndColumn) }),
        evidence,
        fingerprint_hint:
          file === undefined
            ? undefined
            : !redacted
              ? `gitleaks:${file}\n${sha256Hex(secret as string)}`
              : startLine === undefined
                ? undefined
                : `gitleaks-redacted:${file}\n${ruleId}\n${startLine}:${pos(l.StartColumn) ?? 0}`,
      }),
    });
  };

  return { plan, onEvent, finish: () => undefined };
}

/**
 * What a title calls the secret: the rule's description when it is a label ("AWS", "Generic API
 * Key"), its id when the description is a sentence, as gitleaks 8.18+ writes them ("Uncovered a
 * JSON Web Token, which may lead to unauthorized access…").
 */
function shortLabel(description: string, ruleId: string): string {
  return description.length <= 60 && !/[.!?]\s*$/.test(description) ? description : ruleId;
}

function redact(text: string | undefined, secret: string | undefined): string | undefined {
  if (text === undefined || secret === undefined || secret.length < 4) return undefined;
  if (text.includes('REDACTED') && !text.includes(secret)) return text;
  return text.includes(secret) ? text.split(secret).join('REDACTED') : undefined;
}
