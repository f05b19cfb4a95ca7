import type { TEvidence } from '@palisade/contracts';
import { toolSeverity } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { defined } from './package-vuln';
import { shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { SEMGREP_LOGGED_OUT, arr, cvesFromText, cweFromNumber, cweFromText, firstLine, obj, pos, str, uniq, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * Semgrep CLI JSON (`semgrep --json`): streams `results[]`; `errors[]` are not findings, but an
 * error at level "error" (an invalid rule or config, an unknown language: Semgrep exits 2) means
 * the run did not cover what it was asked to, which is reported through `onIncomplete`; warnings
 * (a file that did not parse, a timeout on one file) are not. Severity accepts both vocabularies (ERROR/WARNING/INFO and
 * CRITICAL/HIGH/MEDIUM/LOW). `extra.fingerprint` is Semgrep's match-based id, stable when code
 * moves, and is the identity unless it is the logged-out placeholder "requires login".
 * Lines are dropped when they are the same placeholder.
 */
const PLACEHOLDER = SEMGREP_LOGGED_OUT;

export function makeSemgrepHandler(options: TParseReportOptions): TReportHandler {
  let version: string | undefined;
  let sawResults = false;
  const tool = pickToolName(options.tool, 'semgrep', 'semgrep');

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'a Semgrep report must be a JSON object');
      return 'stream' as const;
    }
    if (d === 1) {
      if (path[0] === 'results') {
        if (kind !== 'array') throw shapeError(path, '"results" must be an array');
        return 'stream' as const;
      }
      if (path[0] === 'errors') return kind === 'array' ? ('stream' as const) : ('skip' as const);
      return path[0] === 'version' ? ('capture' as const) : ('skip' as const);
    }
    // Of an error only its level and what it was.
    if (path[0] === 'errors') {
      if (d === 2) return kind === 'object' ? ('stream' as const) : ('skip' as const);
      return d === 3 && (path[2] === 'level' || path[2] === 'type' || path[2] === 'message') ? ('capture' as const) : ('skip' as const);
    }
    if (path[0] !== 'results') return 'skip' as const;
    if (kind !== 'object') throw shapeError(path, 'each result must be an object');
    return 'capture' as const;
  };

  let error: { level?: string; type?: string; message?: string } = {};
  const onError = (ev: TSplitEvent): void => {
    if (ev.type === 'value' && ev.path.length === 3) {
      const text = ev.path[2] === 'type' && Array.isArray(ev.value) ? str(ev.value[0]) : str(ev.value);
      error[ev.path[2] as 'level' | 'type' | 'message'] = text;
    } else if (ev.type === 'exit' && ev.path.length === 2) {
      if (error.level?.toLowerCase() === 'error') {
        const what = [error.type, firstLine(error.message)].filter((x) => x !== undefined).join(': ');
        options.onIncomplete?.(`Semgrep reported an error${what === '' ? '' : ` (${what.slice(0, 300)})`}`);
      }
      error = {};
    }
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    if (ev.type === 'enter' && ev.path.length === 1 && ev.path[0] === 'results') sawResults = true;
    if (ev.path[0] === 'errors') {
      onError(ev);
      return;
    }
    if (ev.type !== 'value') return;
    if (ev.path.length === 1) {
      version = str(ev.value);
      return;
    }
    const r = ev.value as TJsonObject;
    const extra = obj(r.extra) ?? {};
    const meta = obj(extra.metadata) ?? {};
    const ruleId = str(r.check_id) ?? 'semgrep-rule';
    const path = str(r.path);
    const start = obj(r.start);
    const end = obj(r.end);
    const region = defined({ start_line: pos(start?.line), end_line: pos(end?.line) ?? pos(start?.line), start_column: pos(start?.col), end_column: pos(end?.col) });
    const lines = str(extra.lines);
    const evidence: TEvidence[] = [];
    if (path !== undefined) evidence.push(defined({ kind: 'code_span' as const, region: { path, ...region }, snippet: lines === PLACEHOLDER ? undefined : lines }));
    const flow = dataflow(extra.dataflow_trace, path);
    if (flow !== undefined) evidence.push(flow);
    const message = str(extra.message);
    const fix = str(extra.fix);
    const fingerprint = str(extra.fingerprint);
    // metadata.cwe: "CWE-89: ..." or a list of those (registry rules), or bare numbers.
    const cweValues = Array.isArray(meta.cwe) ? meta.cwe : [meta.cwe];
    const cves = Array.isArray(meta.cve) ? meta.cve : [meta.cve];
    out.push({
      type: 'finding',
      finding: defined({
        tool,
        source_tool: defined({ name: 'semgrep', version }),
        rule: defined({
          id: ruleId,
          name: str(meta.shortDescription) ?? ruleId.split('.').pop(),
          cwe: uniq(cweValues.map((c) => (typeof c === 'number' ? cweFromNumber(c) : cweFromText(c)))),
          cve: cvesFromText(meta['sca-vuln-database-identifier'], ...cves),
        }),
        severity: toolSeverity.semgrep(extra.severity),
        title: firstLine(message) ?? ruleId,
        // The rule's autofix is the remediation Semgrep proposes.
        message: [message, fix === undefined ? undefined : `Suggested fix:\n${fix}`].filter((x) => x !== undefined).join('\n\n') || undefined,
        location: defined({ path, ...region }),
        evidence,
        fingerprint_hint: fingerprint === undefined || fingerprint === PLACEHOLDER ? undefined : `semgrep:${fingerprint}`,
        suppression: extra.is_ignored === true ? { kind: 'in_source' as const, status: 'accepted', justification: 'nosemgrep' } : undefined,
      }),
    });
  };

  const finish = (): void => {
    if (!sawResults) throw shapeError(['results'], 'the Semgrep report has no "results" array');
  };

  return { plan, onEvent, finish };
}

/**
 * Taint traces: taint_source / intermediate_vars / taint_sink, each location either
 * {location, content} (current) or ["CliLoc", [location, content]] (older releases).
 */
function dataflow(trace: unknown, defaultPath: string | undefined): TEvidence | undefined {
  const t = obj(trace);
  if (t === undefined) return undefined;
  const steps: { region: { path: string; start_line?: number; end_line?: number; start_column?: number; end_column?: number }; message?: string }[] = [];
  const add = (node: unknown, label: string): void => {
    let loc: TJsonObject | undefined;
    let content: string | undefined;
    if (Array.isArray(node) && node[0] === 'CliLoc' && Array.isArray(node[1])) {
      loc = obj(node[1][0]);
      content = str(node[1][1]);
    } else if (Array.isArray(node) && node[0] === 'CliCall') {
      add(obj(node[1])?.[0] ?? (Array.isArray(node[1]) ? node[1][0] : undefined), label);
      return;
    } else {
      const n = obj(node);
      loc = obj(n?.location) ?? (n?.path !== undefined ? n : undefined);
      content = str(n?.content);
    }
    const path = str(loc?.path) ?? defaultPath;
    if (loc === undefined || path === undefined) return;
    const s = obj(loc.start);
    const e = obj(loc.end);
    const region = defined({ path, start_line: pos(s?.line), end_line: pos(e?.line) ?? pos(s?.line), start_column: pos(s?.col), end_column: pos(e?.col) });
    steps.push(defined({ region, message: content === undefined ? label : `${label}: ${content}` }));
  };
  add(t.taint_source, 'source');
  for (const v of arr(t.intermediate_vars)) add(v, 'through');
  add(t.taint_sink, 'sink');
  return steps.length === 0 ? undefined : { kind: 'dataflow_path', steps };
}
