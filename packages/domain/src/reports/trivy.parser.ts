import type { TEvidence } from '@palisade/contracts';
import type { TFindingPackage, TNormalizedFinding } from '../findings/normalized-finding';
import { toolSeverity } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { chainsToRoot, defined, dependencyPathEvidence, digestEvidence, packageRef, packageVulnTitle } from './package-vuln';
import { shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { arr, cvesFromText, cweFromText, ecosystemFromPurl, firstLine, obj, pos, str, uniq, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * Trivy JSON: SchemaVersion 2 (`Results[]`), the legacy top-level array of results, the JSON
 * literal `null` (legacy, nothing found), and Kubernetes reports (`Resources[]`, or the older
 * `Vulnerabilities[]` / `Misconfigurations[]` of resources), each resource with its own
 * `Results[]`. Inside a result, Vulnerabilities, Misconfigurations, Secrets, Licenses,
 * Packages and the findings Trivy suppressed stream element by element; the result's
 * Target/Class/Type (written first by Trivy) and its package graph (Packages[].DependsOn, for
 * dependency paths) are kept meanwhile.
 */
/**
 * What `--show-suppressed` adds (Trivy 0.50+): each finding a .trivyignore, an ignore policy or
 * a VEX statement suppressed, as `{Type, Status, Statement, Source, Finding}`. Such a finding is
 * kept, dismissed with the statement as its reason: dropped, a finding the user suppresses
 * would turn `fixed` at the next report, though nothing was fixed.
 */
const MODIFIED_ARRAYS = new Set(['ExperimentalModifiedFindings', 'ModifiedFindings']);
const ITEM_ARRAYS = new Set(['Vulnerabilities', 'Misconfigurations', 'Secrets', 'Licenses', 'Packages', ...MODIFIED_ARRAYS]);
/** The finding kinds of a modified finding's `Type`, by the result array that holds them unmodified. */
const MODIFIED_TYPES: Record<string, string> = { vulnerability: 'Vulnerabilities', misconfiguration: 'Misconfigurations', secret: 'Secrets', license: 'Licenses' };
const RESOURCE_ARRAYS = new Set(['Resources', 'Vulnerabilities', 'Misconfigurations']);
const LANG_CLASSES = new Set(['lang-pkgs']);

interface TResultCtx {
  target?: string;
  klass?: string;
  type?: string;
  logical?: string;
  pending: { key: string; value: TJsonObject }[];
  parents: Map<string, string[]>;
  purlById: Map<string, string>;
  hasTarget: boolean;
}

export function makeTrivyHandler(options: TParseReportOptions): TReportHandler {
  let legacyList = false;
  let resource: { namespace?: string; kind?: string; name?: string } | undefined;
  let result: TResultCtx | undefined;
  const tool = pickToolName(options.tool, 'trivy', 'trivy');

  /** Length of the path that addresses a result object, or -1. */
  const resultDepth = (path: readonly TPathSegment[]): number => {
    if (legacyList) return 1;
    if (path[0] === 'Results') return 2;
    if (path.length >= 4 && RESOURCE_ARRAYS.has(path[0] as string) && path[2] === 'Results') return 4;
    return -1;
  };

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind === 'null') return 'skip' as const;
      if (kind === 'array') legacyList = true;
      else if (kind !== 'object') throw shapeError(path, 'a Trivy report must be a JSON object, an array of results or null');
      return 'stream' as const;
    }
    const rd = resultDepth(path);
    if (d === 1 && !legacyList) {
      if (path[0] === 'Results' || RESOURCE_ARRAYS.has(path[0] as string)) {
        if (kind === 'null') return 'skip' as const;
        if (kind !== 'array') throw shapeError(path, `"${path[0]}" must be an array`);
        return 'stream' as const;
      }
      return 'skip' as const;
    }
    if (rd === -1) {
      // Inside a Kubernetes resource: keep its identity, stream its Results.
      if (d === 2) return kind === 'object' ? ('stream' as const) : ('skip' as const);
      if (d === 3) {
        if (path[2] === 'Results') return kind === 'array' ? ('stream' as const) : ('skip' as const);
        return path[2] === 'Namespace' || path[2] === 'Kind' || path[2] === 'Name' ? ('capture' as const) : ('skip' as const);
      }
      return 'skip' as const;
    }
    if (d === rd) {
      if (kind !== 'object') throw shapeError(path, 'each result must be an object');
      return 'stream' as const;
    }
    const key = path[rd] as string;
    if (d === rd + 1) {
      if (ITEM_ARRAYS.has(key)) return kind === 'array' ? ('stream' as const) : ('skip' as const);
      return key === 'Target' || key === 'Class' || key === 'Type' ? ('capture' as const) : ('skip' as const);
    }
    return d === rd + 2 && ITEM_ARRAYS.has(key) && kind === 'object' ? ('capture' as const) : ('skip' as const);
  };

  const process = (ctx: TResultCtx, key: string, v: TJsonObject, out: TReportItem[]): void => {
    if (key === 'Packages') {
      const id = str(v.ID) ?? (str(v.Name) && str(v.Version) ? `${str(v.Name)}@${str(v.Version)}` : undefined);
      const purl = str(obj(v.Identifier)?.PURL);
      if (id !== undefined) {
        if (purl !== undefined) ctx.purlById.set(id, purl);
        for (const dep of arr(v.DependsOn)) {
          const c = str(dep);
          if (c === undefined) continue;
          const list = ctx.parents.get(c);
          if (list === undefined) ctx.parents.set(c, [id]);
          else list.push(id);
        }
      }
      const name = str(v.Name);
      if (name !== undefined) {
        out.push({ type: 'component', component: defined({ name, version: str(v.Version), purl, type: ctx.type, licenses: uniq(arr(v.Licenses).map(str)) }) });
      }
      return;
    }
    const f = MODIFIED_ARRAYS.has(key) ? modified(ctx, v) : finding(ctx, key, v);
    if (f !== undefined) out.push({ type: 'finding', finding: { tool, source_tool: { name: 'Trivy' }, ...f } });
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    const p = ev.path;
    const rd = p.length === 0 ? -1 : resultDepth(p);
    if (ev.type === 'enter' || ev.type === 'exit') {
      if (rd === -1 && p.length === 2 && RESOURCE_ARRAYS.has(p[0] as string)) resource = ev.type === 'enter' ? {} : undefined;
      if (p.length === rd) {
        if (ev.type === 'enter') {
          const logical = resource?.name === undefined ? undefined : [resource.namespace, resource.kind, resource.name].filter((x) => x !== undefined).join('/');
          result = { pending: [], parents: new Map(), purlById: new Map(), hasTarget: false, logical };
        } else if (result !== undefined) {
          for (const item of result.pending.splice(0)) process(result, item.key, item.value, out);
          result = undefined;
        }
      }
      return;
    }
    if (rd === -1) {
      if (resource !== undefined && p.length === 3) {
        if (p[2] === 'Namespace') resource.namespace = str(ev.value);
        else if (p[2] === 'Kind') resource.kind = str(ev.value);
        else if (p[2] === 'Name') resource.name = str(ev.value);
      }
      return;
    }
    if (result === undefined) return;
    const key = p[rd] as string;
    if (p.length === rd + 1) {
      if (key === 'Target') {
        result.target = str(ev.value);
        result.hasTarget = true;
      } else if (key === 'Class') result.klass = str(ev.value);
      else if (key === 'Type') result.type = str(ev.value);
      return;
    }
    // Until the Target is known (Trivy writes it first) items wait for the end of their result.
    if (result.hasTarget && result.pending.length === 0) process(result, key, ev.value as TJsonObject, out);
    else result.pending.push({ key, value: ev.value as TJsonObject });
  };

  return { plan, onEvent, finish: () => undefined };
}

type TPartial = Omit<TNormalizedFinding, 'tool' | 'source_tool'>;

/** A finding of one of a result's finding arrays (Vulnerabilities, Misconfigurations, Secrets, Licenses). */
function finding(ctx: TResultCtx, key: string, v: TJsonObject): TPartial | undefined {
  if (key === 'Vulnerabilities') return vulnerability(ctx, v);
  if (key === 'Misconfigurations') return misconfiguration(ctx, v);
  if (key === 'Secrets') return secret(ctx, v);
  return key === 'Licenses' ? license(ctx, v) : undefined;
}

/**
 * A finding Trivy suppressed: read as its unmodified kind would be (same fingerprint, so a
 * known finding moves to dismissed), with the suppression — `tool` for what an ignore file or
 * policy suppressed (Status ignored), `vex` for a VEX statement (not_affected, fixed). A
 * misconfiguration check that passed is no finding, suppressed or not: Trivy lists an ignored
 * check before it drops the passed ones.
 */
function modified(ctx: TResultCtx, m: TJsonObject): TPartial | undefined {
  const kind = MODIFIED_TYPES[str(m.Type)?.toLowerCase() ?? ''];
  const inner = obj(m.Finding);
  if (kind === undefined || inner === undefined) return undefined;
  const f = finding(ctx, kind, inner);
  if (f === undefined) return undefined;
  const status = str(m.Status) ?? 'ignored';
  const why = [str(m.Statement), str(m.Source) === undefined ? undefined : `(source: ${str(m.Source)})`].filter((x) => x !== undefined).join(' ');
  return { ...f, suppression: defined({ kind: status === 'ignored' ? ('tool' as const) : ('vex' as const), status, justification: why === '' ? undefined : why }) };
}

function pkgOf(ctx: TResultCtx, v: TJsonObject): TFindingPackage | undefined {
  const name = str(v.PkgName);
  if (name === undefined) return undefined;
  const purl = str(obj(v.PkgIdentifier)?.PURL);
  return defined({ name, version: str(v.InstalledVersion), purl, ecosystem: ecosystemFromPurl(purl) ?? ctx.type?.toLowerCase() });
}

function vulnerability(ctx: TResultCtx, v: TJsonObject): TPartial {
  const id = str(v.VulnerabilityID) ?? 'trivy-vulnerability';
  const pkg = pkgOf(ctx, v);
  const evidence: TEvidence[] = [];
  if (pkg !== undefined) {
    const pkgId = str(v.PkgID) ?? (pkg.version === undefined ? pkg.name : `${pkg.name}@${pkg.version}`);
    const fixed = (str(v.FixedVersion) ?? '').split(/,\s*/).filter((x) => x !== '');
    const chains = ctx.parents.size === 0 ? [] : chainsToRoot(pkgId, (n) => ctx.parents.get(n) ?? [], () => false, 4);
    const refOf = (n: string): string => (n === pkgId ? packageRef(pkg) : ctx.purlById.get(n) ?? n);
    if (chains.length === 0) evidence.push(dependencyPathEvidence(pkg, undefined, fixed));
    for (const chain of chains) evidence.push(dependencyPathEvidence(pkg, chain.map(refOf), fixed));
  }
  const layer = obj(v.Layer);
  const digest = digestEvidence(str(layer?.Digest) ?? str(layer?.DiffID), ctx.target);
  if (digest !== undefined) evidence.push(digest);
  const title = str(v.Title);
  const description = str(v.Description);
  const cve = cvesFromText(id, ...arr(v.VendorIDs));
  const aliases = uniq(arr(v.VendorIDs).map(str)).filter((x) => x !== id && !cve.includes(x));
  return defined({
    rule: defined({ id, name: title, cwe: uniq(arr(v.CweIDs).map(cweFromText)), cve, aliases: aliases.length === 0 ? undefined : aliases }),
    severity: toolSeverity.trivy(v.Severity),
    title: packageVulnTitle(id, pkg),
    message: [title, description].filter((x) => x !== undefined).join('\n\n') || undefined,
    location: defined({
      path: str(v.PkgPath) ?? (LANG_CLASSES.has(ctx.klass ?? '') ? ctx.target : undefined),
      package: pkg,
      logical: ctx.logical,
    }),
    evidence,
    suppression: v.Status === 'not_affected' ? { kind: 'tool' as const, status: 'not_affected' } : undefined,
  });
}

function codeSnippet(code: unknown, onlyCause: boolean): string | undefined {
  const lines = arr(obj(code)?.Lines).map(obj).filter((l): l is TJsonObject => l !== undefined && (!onlyCause || l.IsCause === true));
  const text = lines.map((l) => (typeof l.Content === 'string' ? l.Content : '')).join('\n');
  return text.trim() === '' ? undefined : text;
}

function misconfiguration(ctx: TResultCtx, m: TJsonObject): TPartial | undefined {
  const status = str(m.Status) ?? 'FAIL';
  if (status === 'PASS') return undefined;
  const id = str(m.ID) ?? str(m.AVDID) ?? 'trivy-misconfiguration';
  // IacMetadata: what Trivy called CauseMetadata before 0.28 (older reports, Kubernetes ones too).
  const cause = obj(m.CauseMetadata) ?? obj(m.IacMetadata) ?? {};
  const file = ctx.target;
  const startLine = pos(cause.StartLine);
  const evidence: TEvidence[] = [];
  if (file !== undefined) {
    evidence.push(defined({ kind: 'config_path' as const, file, path: str(cause.Resource) ?? '', line: startLine, actual: str(m.Message), expected: str(m.Resolution) }));
    const snippet = codeSnippet(cause.Code, true);
    if (snippet !== undefined || startLine !== undefined) evidence.push(defined({ kind: 'code_span' as const, region: defined({ path: file, start_line: startLine, end_line: pos(cause.EndLine) ?? startLine }), snippet }));
  }
  const title = str(m.Title) ?? id;
  return defined({
    rule: defined({ id, name: str(m.Title), cwe: [], cve: [] }),
    severity: toolSeverity.trivy(m.Severity),
    title,
    message: str(m.Message) ?? str(m.Description),
    location: defined({ path: file, start_line: startLine, end_line: pos(cause.EndLine) ?? startLine, logical: ctx.logical ?? str(cause.Resource) }),
    evidence,
    suppression: status === 'EXCEPTION' ? { kind: 'tool' as const, status: 'EXCEPTION' } : undefined,
  });
}

function secret(ctx: TResultCtx, s: TJsonObject): TPartial {
  const id = str(s.RuleID) ?? 'trivy-secret';
  const startLine = pos(s.StartLine);
  const evidence: TEvidence[] = [];
  // Trivy masks the secret in Match and Code ("****"), so the snippet is safe to keep.
  if (ctx.target !== undefined) {
    evidence.push(defined({ kind: 'code_span' as const, region: defined({ path: ctx.target, start_line: startLine, end_line: pos(s.EndLine) ?? startLine }), snippet: str(s.Match) ?? codeSnippet(s.Code, true) }));
  }
  const digest = digestEvidence(str(obj(s.Layer)?.Digest) ?? str(obj(s.Layer)?.DiffID), ctx.target);
  if (digest !== undefined) evidence.push(digest);
  return defined({
    rule: defined({ id, name: str(s.Title), cwe: [], cve: [] }),
    severity: toolSeverity.secret(s.Severity),
    title: firstLine(str(s.Title)) ?? id,
    message: str(s.Category) === undefined ? undefined : `${str(s.Category)} secret`,
    location: defined({ path: ctx.target, start_line: startLine, end_line: pos(s.EndLine) ?? startLine, logical: ctx.logical }),
    evidence,
  });
}

function license(ctx: TResultCtx, l: TJsonObject): TPartial {
  const name = str(l.Name) ?? 'unknown';
  const pkgName = str(l.PkgName);
  const category = str(l.Category);
  return defined({
    rule: { id: `license:${name}`, name: `License ${name}`, cwe: [], cve: [] },
    severity: toolSeverity.trivy(l.Severity),
    title: `License ${name}${category === undefined ? '' : ` (${category})`}${pkgName === undefined ? '' : ` in ${pkgName}`}`,
    message: str(l.Link),
    location: defined({
      path: str(l.FilePath) ?? (pkgName === undefined ? ctx.target : undefined),
      package: pkgName === undefined ? undefined : defined({ name: pkgName, ecosystem: ctx.type?.toLowerCase() }),
      logical: ctx.logical,
    }),
    evidence: [],
  });
}
