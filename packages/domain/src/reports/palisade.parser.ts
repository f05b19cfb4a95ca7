import { ZPalisadeReport, ZPalisadeResult, type TPalisadeResult } from '@palisade/contracts';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { defined } from './package-vuln';
import { ReportParseError, shapeError, toJsonPointer } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { pickToolName } from './tool-name';

/**
 * Palisade's own format (contracts ZPalisadeReport), validated as strictly as the schema says:
 * format "palisade", version 1, a tool, and results each checked against ZPalisadeResult as
 * they stream (an unknown key anywhere is an error). Results that arrive before `tool` wait for
 * it; the built-in scanners write it first.
 */
const TOP_KEYS = new Set(Object.keys(ZPalisadeReport.shape));
const ZTool = ZPalisadeReport.shape.tool;

export function makePalisadeHandler(options: TParseReportOptions): TReportHandler {
  let tool: { name: string; version?: string } | undefined;
  const seen = new Set<string>();
  const waiting: TPalisadeResult[] = [];
  let count = 0;

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'a Palisade report must be a JSON object');
      return 'stream' as const;
    }
    if (d === 1) {
      const key = path[0] as string;
      if (!TOP_KEYS.has(key)) throw shapeError(path, `unknown field "${key}"`);
      if (key === 'results') {
        if (kind !== 'array') throw shapeError(path, '"results" must be an array');
        return 'stream' as const;
      }
      return 'capture' as const;
    }
    return 'capture' as const;
  };

  const emit = (r: TPalisadeResult, out: TReportItem[]): void => {
    const t = tool as { name: string; version?: string };
    out.push({
      type: 'finding',
      finding: defined({
        tool: pickToolName(options.tool, t.name, 'palisade'),
        source_tool: defined({ name: t.name, version: t.version }),
        rule: defined({ id: r.rule_id, name: r.rule_name, cwe: r.cwe ?? [], cve: r.cve ?? [] }),
        severity: r.severity,
        title: r.title,
        message: r.message,
        location: r.location === undefined ? {} : { ...r.location },
        evidence: r.evidence,
        fingerprint_hint: r.fingerprint === undefined ? undefined : `palisade:${r.fingerprint}`,
      }),
    });
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    const p = ev.path;
    if (ev.type === 'enter' && p.length === 1) seen.add('results');
    if (ev.type !== 'value') return;
    if (p.length === 1) {
      const key = p[0] as string;
      seen.add(key);
      if (key === 'format' && ev.value !== 'palisade') throw shapeError(p, '"format" must be "palisade"');
      if (key === 'version' && ev.value !== 1) throw new ReportParseError('unsupported_version', `Palisade report version ${JSON.stringify(ev.value)} is not supported; send version 1`, '/version');
      if (key === 'tool') {
        const parsed = ZTool.safeParse(ev.value);
        if (!parsed.success) throw issueError(p, parsed.error.issues);
        tool = parsed.data;
        for (const r of waiting.splice(0)) emit(r, out);
      }
      return;
    }
    if (++count > 1_000_000) throw shapeError(p, 'more than 1,000,000 results');
    const parsed = ZPalisadeResult.safeParse(ev.value);
    if (!parsed.success) throw issueError(p, parsed.error.issues);
    if (tool === undefined) waiting.push(parsed.data);
    else emit(parsed.data, out);
  };

  const finish = (): void => {
    for (const key of ['format', 'version', 'tool', 'results']) if (!seen.has(key)) throw shapeError([key], `the Palisade report has no "${key}"`);
  };

  return { plan, onEvent, finish };
}

function issueError(base: readonly TPathSegment[], issues: readonly { path: readonly PropertyKey[]; message: string }[]): ReportParseError {
  const first = issues[0];
  const path = [...base, ...(first?.path ?? []).map((k) => (typeof k === 'number' ? k : String(k)))];
  return new ReportParseError('invalid_shape', `${toJsonPointer(path) || '/'}: ${first?.message ?? 'invalid value'}`, toJsonPointer(path));
}
