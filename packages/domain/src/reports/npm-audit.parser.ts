import { PackageURL } from 'packageurl-js';
import semver from 'semver';
import type { TEvidence } from '@palisade/contracts';
import type { TFindingPackage, TNormalizedFinding } from '../findings/normalized-finding';
import { toolSeverity } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { chainsToRoot, defined, dependencyPathEvidence, packageVulnTitle } from './package-vuln';
import { shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { arr, cvesFromText, cweFromText, obj, str, uniq, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * `npm audit --json`, both report versions:
 * - v1 (npm <= 6): `advisories` {id → advisory}; one finding per advisory per installed version
 *   (advisory.findings[].version), dependency paths from findings[].paths ("a>b>c").
 * - v2 (npm >= 7, auditReportVersion 2): `vulnerabilities` {name → entry}; one finding per
 *   advisory object in an entry's `via`, i.e. per (vulnerable package, advisory). Entries whose
 *   `via` holds only package names are vulnerable only through a dependency: they are not
 *   findings of their own but the links of the dependency paths (walked up to the direct
 *   dependencies through `effects`, and through the entries whose `via` names the package: npm
 *   leaves `effects` empty on some links that a dependent's `via` still names). v2 gives no installed versions, so the package is name-only.
 * Advisories are streamed (v1); the v2 map is read whole, since its paths need the whole graph
 * (it is bounded by the project's dependency count, not by advisory text).
 */
export function makeNpmAuditHandler(options: TParseReportOptions): TReportHandler {
  const tool = pickToolName(options.tool, 'npm-audit', 'npm-audit');
  const source = { name: 'npm audit' };
  let sawData = false;

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'an npm audit report must be a JSON object');
      return 'stream' as const;
    }
    if (d === 1) {
      if (path[0] === 'advisories') return kind === 'object' ? ('stream' as const) : ('skip' as const);
      if (path[0] === 'vulnerabilities' || path[0] === 'error') return 'capture' as const;
      // yarn classic's `yarn audit --json` writes one {"type", "data"} object per line.
      if (path[0] === 'type' && kind === 'string') {
        throw shapeError(path, 'this looks like `yarn audit --json` output (one {"type", "data"} object per line), which is not supported; send the output of `npm audit --json` or `pnpm audit --json`');
      }
      return 'skip' as const;
    }
    return path[0] === 'advisories' && d === 2 ? ('capture' as const) : ('skip' as const);
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    if (ev.type === 'enter' && ev.path[0] === 'advisories') sawData = true;
    if (ev.type !== 'value') return;
    const key = ev.path[0];
    if (key === 'error') {
      const e = obj(ev.value);
      throw shapeError(['error'], `npm audit reported an error instead of results: ${str(e?.summary) ?? str(e?.code) ?? 'unknown error'}`);
    }
    sawData = true;
    if (key === 'advisories') {
      const a = obj(ev.value);
      if (a !== undefined) for (const f of v1Findings(a)) out.push({ type: 'finding', finding: { tool, source_tool: source, ...f } });
    } else if (key === 'vulnerabilities') {
      for (const f of v2Findings(obj(ev.value) ?? {})) out.push({ type: 'finding', finding: { tool, source_tool: source, ...f } });
    }
  };

  const finish = (): void => {
    if (!sawData) throw shapeError([], 'an npm audit report has "advisories" (v1) or "vulnerabilities" (v2)');
  };

  return { plan, onEvent, finish };
}

type TPartial = Omit<TNormalizedFinding, 'tool' | 'source_tool'>;

function npmPackage(name: string, version: string | undefined): TFindingPackage {
  let purl: string | undefined;
  try {
    const slash = name.startsWith('@') ? name.indexOf('/') : -1;
    purl = (slash > 0 ? new PackageURL('npm', name.slice(0, slash), name.slice(slash + 1), version) : new PackageURL('npm', undefined, name, version)).toString();
  } catch {
    purl = undefined;
  }
  return defined({ name, version, purl, ecosystem: 'npm' });
}

/** The advisory id people search for: the GHSA id (field or URL), else npm's numeric id. */
function advisoryId(ghsa: unknown, url: unknown, npmId: unknown): string {
  const fromUrl = typeof url === 'string' ? /GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}/i.exec(url)?.[0] : undefined;
  return str(ghsa) ?? fromUrl ?? (str(npmId) === undefined ? 'npm-advisory' : `NPM-${str(npmId)}`);
}

function cwes(value: unknown): string[] {
  return uniq((Array.isArray(value) ? value : [value]).map(cweFromText));
}

function v1Findings(a: TJsonObject): TPartial[] {
  const name = str(a.module_name) ?? 'unknown';
  const id = advisoryId(a.github_advisory_id, a.url, a.id);
  const patched = str(a.patched_versions);
  const firstFixed = patched === undefined || !semver.validRange(patched) ? undefined : semver.minVersion(patched)?.version;
  const out: TPartial[] = [];
  const installs = arr(a.findings).map(obj).filter((f): f is TJsonObject => f !== undefined);
  for (const install of installs.length > 0 ? installs : [{}]) {
    const pkg = npmPackage(name, str(install.version));
    const evidence: TEvidence[] = arr(install.paths)
      .map(str)
      .filter((p): p is string => p !== undefined)
      .slice(0, 16)
      .map((p) => dependencyPathEvidence(pkg, auditPath(p), firstFixed === undefined ? undefined : [firstFixed]));
    if (evidence.length === 0) evidence.push(dependencyPathEvidence(pkg, undefined, firstFixed === undefined ? undefined : [firstFixed]));
    out.push(
      defined({
        rule: defined({ id, name: str(a.title), cwe: cwes(a.cwe), cve: uniq([...arr(a.cves).map(str), ...cvesFromText(id)]) }),
        severity: toolSeverity.npmAudit(a.severity),
        title: packageVulnTitle(id, pkg),
        message: [str(a.title), str(a.overview), patched === undefined ? undefined : `Patched versions: ${patched}`].filter((x) => x !== undefined).join('\n\n') || undefined,
        location: { package: pkg },
        evidence,
      }),
    );
  }
  return out;
}

function v2Findings(vulns: TJsonObject): TPartial[] {
  const entry = (n: string): TJsonObject | undefined => obj(vulns[n]);
  const dependents = new Map<string, string[]>();
  for (const [key, value] of Object.entries(vulns)) {
    for (const via of arr(obj(value)?.via)) {
      if (typeof via !== 'string') continue;
      const list = dependents.get(via);
      if (list === undefined) dependents.set(via, [str(obj(value)?.name) ?? key]);
      else list.push(str(obj(value)?.name) ?? key);
    }
  }
  const parents = (n: string): string[] =>
    uniq([...arr(entry(n)?.effects).map(str), ...(dependents.get(n) ?? [])]).filter((x) => x !== n && entry(x) !== undefined);
  const out: TPartial[] = [];
  for (const [key, value] of Object.entries(vulns)) {
    const e = obj(value);
    if (e === undefined) continue;
    const name = str(e.name) ?? key;
    const pkg = npmPackage(name, undefined);
    const chains = chainsToRoot(name, parents, (n) => entry(n)?.isDirect === true, 16);
    const fix = obj(e.fixAvailable);
    const fixed = fix !== undefined && str(fix.name) === name && str(fix.version) !== undefined ? [str(fix.version) as string] : undefined;
    for (const via of arr(e.via)) {
      const v = obj(via);
      if (v === undefined) continue; // a package name: vulnerable through that dependency
      const id = advisoryId(undefined, v.url, v.source);
      const evidence = chains.map((c) => dependencyPathEvidence(pkg, c, fixed));
      const range = str(v.range);
      out.push(
        defined({
          rule: defined({ id, name: str(v.title), cwe: cwes(v.cwe), cve: cvesFromText(id) }),
          severity: toolSeverity.npmAudit(v.severity ?? e.severity),
          title: packageVulnTitle(id, pkg),
          message: [str(v.title), range === undefined ? undefined : `Vulnerable versions: ${range}`].filter((x) => x !== undefined).join('\n\n') || undefined,
          location: { package: pkg },
          evidence: evidence.length > 0 ? evidence : [dependencyPathEvidence(pkg, undefined, fixed)],
        }),
      );
    }
  }
  return out;
}

/**
 * A v1 `findings[].paths` entry as its packages: npm writes "react-scripts>webpack>node-forge";
 * pnpm, in the same shape, ". > react-scripts@4.0.3 > webpack@4.44.2 > node-forge@0.10.0", where
 * "." is the project itself (a workspace package's directory in a monorepo, which is kept).
 */
function auditPath(path: string): string[] {
  const steps = path
    .split('>')
    .map((step) => step.trim())
    .filter((step) => step !== '');
  return steps[0] === '.' ? steps.slice(1) : steps;
}
