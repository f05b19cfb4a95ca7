import { createHash } from 'node:crypto';
import type { TEvidence } from '@palisade/contracts';
import type { TFindingLocation, TNormalizedFinding } from './normalized-finding';

/**
 * Brings a parser's finding within the model's limits (ZNormalizedFinding, ZEvidence): strings
 * clipped, arrays cut, lines below 1 dropped, empty evidence removed. Parsers produce what the
 * report says; this is the one place that makes it fit, so an overlong message or a 5000-step
 * code flow in one result never costs the rest of the report.
 */
// NUL cannot be stored in PostgreSQL text or jsonb (grype reports carry one in a Java version).
const clip = (s: string, max: number): string => {
  const t = s.includes('\u0000') ? s.replace(/\u0000/g, '') : s;
  return t.length <= max ? t : t.slice(0, max - 1) + '…';
};
const clipOpt = (s: string | undefined, max: number): string | undefined => (s === undefined || s === '' ? undefined : clip(s, max));
const CWE_ID = /^CWE-\d+$/;
// Safe integers only, as the model's z.number().int() has them: 1e300 is an integer to JavaScript,
// and one stored would fail every later response that lists its finding.
const line = (n: number | undefined): number | undefined => (n !== undefined && Number.isSafeInteger(n) && n >= 1 ? n : undefined);

/** A copy without the undefined keys (built fresh: `delete` would slow every later access). */
function compact<T extends object>(o: T): T {
  const out = {} as T;
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Each value once, in order (most lists here hold one value or none: no Set for those). */
function distinct(values: readonly string[]): string[] {
  return values.length <= 1 ? values.slice() : [...new Set(values)];
}

type TRegion = { path: string; start_line?: number; end_line?: number; start_column?: number; end_column?: number };

/**
 * A region within limits, built key by key: this runs for every location of every finding, and
 * a spread plus compact() per region was most of limitFinding's time on a large report.
 */
function region(r: TRegion): TRegion {
  const out: TRegion = { path: clip(r.path, 4096) };
  putLines(out, r);
  return out;
}

/** Copies the valid line and column numbers of `from` onto `to` (those below 1 are dropped). */
function putLines(to: Omit<TRegion, 'path'>, from: Omit<TRegion, 'path'>): void {
  const startLine = line(from.start_line);
  if (startLine !== undefined) to.start_line = startLine;
  const endLine = line(from.end_line);
  if (endLine !== undefined) to.end_line = endLine;
  const startColumn = line(from.start_column);
  if (startColumn !== undefined) to.start_column = startColumn;
  const endColumn = line(from.end_column);
  if (endColumn !== undefined) to.end_column = endColumn;
}

function limitEvidence(e: TEvidence): TEvidence | undefined {
  switch (e.kind) {
    case 'code_span': {
      if (e.region.path === '') return undefined;
      const snippet = clipOpt(e.snippet, 8192);
      return snippet === undefined ? { kind: e.kind, region: region(e.region) } : { kind: e.kind, region: region(e.region), snippet };
    }
    case 'dataflow_path': {
      const steps: Array<{ region: TRegion; message?: string }> = [];
      for (const step of e.steps) {
        if (step.region.path === '') continue;
        const message = clipOpt(step.message, 2048);
        steps.push(message === undefined ? { region: region(step.region) } : { region: region(step.region), message });
        if (steps.length === 1000) break;
      }
      return steps.length === 0 ? undefined : { kind: e.kind, steps };
    }
    case 'dependency_path': {
      const path = e.path.map((p) => clip(p, 1024)).filter((p) => p !== '');
      // Keep both ends of an over-long chain: the root and the vulnerable package matter most.
      const cut = path.length > 256 ? [...path.slice(0, 128), ...path.slice(-128)] : path;
      if (cut.length === 0) return undefined;
      return compact({
        kind: e.kind,
        path: cut,
        package: compact({
          name: clip(e.package.name, 512),
          version: clipOpt(e.package.version, 256),
          purl: clipOpt(e.package.purl, 1024),
          ecosystem: clipOpt(e.package.ecosystem, 64),
        }),
        fixed_versions:
          e.fixed_versions === undefined || e.fixed_versions.length === 0
            ? undefined
            : e.fixed_versions.slice(0, 64).map((v) => clip(v, 256)),
      });
    }
    case 'config_path':
      return e.file === ''
        ? undefined
        : compact({
            kind: e.kind,
            file: clip(e.file, 4096),
            path: clip(e.path, 2048),
            line: line(e.line),
            actual: clipOpt(e.actual, 2048),
            expected: clipOpt(e.expected, 2048),
          });
    case 'artifact_hash':
      return compact({ kind: e.kind, algorithm: clip(e.algorithm, 32), digest: clip(e.digest, 256), artifact: clipOpt(e.artifact, 4096) });
    default:
      return e;
  }
}

function limitLocation(l: TFindingLocation): TFindingLocation {
  const out: TFindingLocation = {};
  const path = clipOpt(l.path, 4096);
  if (path !== undefined) out.path = path;
  putLines(out, l);
  if (l.package !== undefined) {
    out.package = compact({
      name: clip(l.package.name, 512),
      version: clipOpt(l.package.version, 256),
      purl: clipOpt(l.package.purl, 1024),
      ecosystem: clipOpt(l.package.ecosystem, 64),
    });
  }
  const logical = clipOpt(l.logical, 1024);
  if (logical !== undefined) out.logical = logical;
  return out;
}

/** Aliases other than the rule id and the CVEs, each once, within the model's limits; undefined when none remain. */
function limitAliases(aliases: string[] | undefined, id: string, cves: string[]): string[] | undefined {
  if (aliases === undefined) return undefined;
  const skip = new Set([id, ...cves]);
  const out = [...new Set(aliases.map((a) => a.replace(/\u0000/g, '').trim()))]
    .filter((a) => a !== '' && a.length <= 128 && !skip.has(a))
    .slice(0, 64);
  return out.length === 0 ? undefined : out;
}

export function limitFinding(f: TNormalizedFinding): TNormalizedFinding {
  const evidence: TEvidence[] = [];
  for (const e of f.evidence) {
    if (evidence.length >= 64) break;
    const limited = limitEvidence(e);
    if (limited !== undefined) evidence.push(limited);
  }
  return compact({
    tool: clip(f.tool, 64),
    source_tool:
      f.source_tool === undefined
        ? undefined
        : compact({ name: clip(f.source_tool.name, 256), version: clipOpt(f.source_tool.version, 64) }),
    rule: compact({
      id: clip(f.rule.id, 256),
      name: clipOpt(f.rule.name, 512),
      cwe: distinct(f.rule.cwe)
        .filter((c) => CWE_ID.test(c))
        .slice(0, 32),
      cve: distinct(f.rule.cve)
        .slice(0, 64)
        .map((c) => clip(c, 64)),
      aliases: limitAliases(f.rule.aliases, f.rule.id, f.rule.cve),
    }),
    severity: f.severity,
    title: clip(f.title.trim() === '' ? f.rule.id : f.title, 1024),
    message: clipOpt(f.message, 8192),
    location: limitLocation(f.location),
    evidence,
    // A long identity is hashed, not clipped: clipping could make two identities one.
    fingerprint_hint:
      f.fingerprint_hint === undefined || f.fingerprint_hint === ''
        ? undefined
        : f.fingerprint_hint.length > 512
          ? 'sha256:' + createHash('sha256').update(f.fingerprint_hint).digest('hex')
          : f.fingerprint_hint,
    suppression:
      f.suppression === undefined
        ? undefined
        : compact({
            kind: f.suppression.kind,
            status: clipOpt(f.suppression.status, 64),
            justification: clipOpt(f.suppression.justification, 4096),
          }),
    occurrence: f.occurrence,
  });
}
