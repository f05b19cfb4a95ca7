import semver from 'semver';
import type { TSeverity } from '@palisade/contracts';
import type { TFindingPackage } from '../findings/normalized-finding';
import { cvss3BaseScore, maxSeverity, severityFromCvssScore, severityFromLabel } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { defined, dependencyPathEvidence, packageVulnTitle } from './package-vuln';
import { shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { arr, cvesFromText, cweFromText, num, obj, str, uniq, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * OSV-Scanner JSON (`osv-scanner --format json`): results[] (one per scanned source) →
 * packages[] (streamed one at a time) → vulnerabilities (full OSV records) and groups. One
 * finding per group, named by its CVE where it has one: a group gathers the records that are aliases of one vulnerability (a GHSA
 * and a PYSEC entry for the same issue), so one fix closes one finding. Without groups (older
 * releases), one finding per record. Malicious-package records (MAL-*) are critical: the
 * advisory's own advice is to treat the machine as compromised. Each package is also yielded as
 * a component (a commit-only package is named "commit:<sha>"), with the licences osv-scanner
 * found for it (`--licenses`); each licence outside the caller's allow-list (`license_violations`)
 * is a finding of its own, `license:<id>`, as Trivy's licence findings are.
 */
export function makeOsvScannerHandler(options: TParseReportOptions): TReportHandler {
  const tool = pickToolName(options.tool, 'osv-scanner', 'osv-scanner');
  let source: string | undefined;
  let sawResults = false;
  let waiting: TJsonObject[] = [];
  let sourceSeen = false;

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'an OSV-Scanner report must be a JSON object');
      return 'stream' as const;
    }
    if (path[0] !== 'results') return 'skip' as const;
    if (d === 1) {
      if (kind === 'null') {
        // Go's encoding of an empty result list: nothing was found.
        sawResults = true;
        return 'skip' as const;
      }
      if (kind !== 'array') throw shapeError(path, '"results" must be an array');
      return 'stream' as const;
    }
    if (d === 2) return kind === 'object' ? ('stream' as const) : ('skip' as const);
    if (d === 3) return path[2] === 'source' ? ('capture' as const) : path[2] === 'packages' && kind === 'array' ? ('stream' as const) : ('skip' as const);
    return d === 4 && path[2] === 'packages' && kind === 'object' ? ('capture' as const) : ('skip' as const);
  };

  const emitPackage = (entry: TJsonObject, out: TReportItem[]): void => {
    const p = obj(entry.package) ?? {};
    const name = str(p.name) ?? (str(p.commit) === undefined ? undefined : `commit:${str(p.commit)}`);
    if (name === undefined) return;
    const pkg: TFindingPackage = defined({ name, version: str(p.version), purl: str(p.purl), ecosystem: str(p.ecosystem)?.toLowerCase() });
    // Every listed package is also an SBOM entry (osv-scanner lists only packages with findings).
    const licenses = uniq(arr(entry.licenses).map(str));
    out.push({ type: 'component', component: defined({ name, version: pkg.version, purl: pkg.purl, type: str(p.ecosystem), licenses }) });
    for (const license of uniq(arr(entry.license_violations).map(str))) {
      out.push({
        type: 'finding',
        finding: defined({
          tool,
          source_tool: { name: 'osv-scanner' },
          rule: { id: `license:${license}`, name: `License ${license}`, cwe: [], cve: [] },
          severity: 'medium' as const,
          title: `License ${license} in ${name}`,
          message: `${name}${pkg.version === undefined ? '' : ` ${pkg.version}`} is licensed ${license}, which is not among the licences the scan allows.`,
          location: defined({ path: source, package: pkg }),
          evidence: [],
        }),
      });
    }
    const records = arr(entry.vulnerabilities).map(obj).filter((v): v is TJsonObject => v !== undefined);
    const byId = new Map(records.map((r) => [str(r.id) ?? '', r]));
    const groups = arr(entry.groups).map(obj).filter((g): g is TJsonObject => g !== undefined);
    const sets = groups.length > 0 ? groups.map((g) => ({ ids: arr(g.ids).map(str).filter((x): x is string => x !== undefined), aliases: arr(g.aliases), max: g.max_severity })) : records.map((r) => ({ ids: [str(r.id) ?? 'osv'], aliases: arr(r.aliases), max: undefined }));
    for (const set of sets) {
      const recs = set.ids.map((id) => byId.get(id)).filter((r): r is TJsonObject => r !== undefined);
      const allIds = [...set.ids, ...set.aliases, ...recs.flatMap((r) => arr(r.aliases))];
      const id = stableId(set.ids, allIds);
      const cve = cvesFromText(...allIds);
      const aliases = uniq(allIds.map(str)).filter((x) => x !== id && !cve.includes(x));
      const fixed = uniq(recs.flatMap((r) => fixedVersions(r, p)));
      const summary = recs.map((r) => str(r.summary)).find((x) => x !== undefined);
      out.push({
        type: 'finding',
        finding: defined({
          tool,
          source_tool: { name: 'osv-scanner' },
          rule: defined({
            id,
            name: summary,
            cwe: uniq(recs.flatMap((r) => [...arr(obj(r.database_specific)?.cwe_ids), ...arr(r.affected).flatMap((a) => arr(obj(obj(a)?.database_specific)?.cwes).map((c) => obj(c)?.cweId))]).map(cweFromText)),
            cve,
            aliases: aliases.length === 0 ? undefined : aliases,
          }),
          severity: severity(set.ids, set.max, recs),
          title: packageVulnTitle(id, pkg),
          message: summary ?? recs.map((r) => str(r.details)).find((x) => x !== undefined),
          location: defined({ path: source, package: pkg }),
          evidence: [dependencyPathEvidence(pkg, undefined, fixed)],
        }),
      });
    }
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    const p = ev.path;
    if (p.length === 1 && ev.type === 'enter') sawResults = true;
    if (p.length === 2) {
      // A source's packages wait for its "source" (written first by osv-scanner).
      if (ev.type === 'enter') {
        source = undefined;
        sourceSeen = false;
        waiting = [];
      } else if (ev.type === 'exit') for (const w of waiting.splice(0)) emitPackage(w, out);
      return;
    }
    if (ev.type !== 'value') return;
    if (p.length === 3) {
      source = str(obj(ev.value)?.path);
      sourceSeen = true;
    } else if (sourceSeen) emitPackage(ev.value as TJsonObject, out);
    else waiting.push(ev.value as TJsonObject);
  };

  const finish = (): void => {
    if (!sawResults) throw shapeError(['results'], 'the OSV-Scanner report has no "results" array');
  };

  return { plan, onEvent, finish };
}

/**
 * One name for a group, stable when another database's record joins it in a later scan: its CVE
 * alias, else its GHSA id, else its first id.
 */
function stableId(ids: string[], aliases: unknown[]): string {
  const all = uniq([...ids, ...aliases.map(str)]).sort();
  return all.find((x) => /^CVE-\d{4}-\d+$/i.test(x)) ?? all.find((x) => /^GHSA-/i.test(x)) ?? ids[0] ?? 'osv';
}

/**
 * The versions that fix the record for this package. Where a SEMVER range places the installed
 * version inside one of its intervals (introduced … fixed), only that interval's fix: Go's
 * standard library is fixed in 1.23.10 and 1.24.4, and 1.23.10 does not fix 1.24.3. Otherwise
 * (ECOSYSTEM ranges, whose ordering is the ecosystem's own, or an installed version the ranges
 * do not place) every fix the record names.
 */
function fixedVersions(record: TJsonObject, pkg: TJsonObject): string[] {
  const all: string[] = [];
  const placed: string[] = [];
  const installed = semver.valid(str(pkg.version) ?? '');
  for (const a of arr(record.affected).map(obj)) {
    const ap = obj(a?.package);
    if (ap !== undefined && str(ap.name) !== undefined && str(ap.name) !== str(pkg.name)) continue;
    for (const r of arr(a?.ranges).map(obj)) {
      const semverRange = str(r?.type) === 'SEMVER';
      let introduced: string | null | undefined;
      for (const e of arr(r?.events).map(obj)) {
        const opened = str(e?.introduced);
        if (opened !== undefined) introduced = opened === '0' ? null : semver.valid(opened);
        const f = str(e?.fixed);
        if (f === undefined) continue;
        all.push(f);
        const fixed = semver.valid(f);
        if (semverRange && installed !== null && fixed !== null && introduced !== undefined && (introduced === null || semver.gte(installed, introduced)) && semver.lt(installed, fixed)) placed.push(f);
        introduced = undefined;
      }
    }
  }
  return placed.length > 0 ? placed : all;
}

function severity(ids: string[], groupMax: unknown, records: TJsonObject[]): TSeverity {
  if (ids.some((id) => /^MAL-/i.test(id))) return 'critical';
  const max = num(groupMax);
  if (max !== undefined) return severityFromCvssScore(max) ?? 'info';
  let best: TSeverity | undefined;
  for (const r of records) {
    const label = severityFromLabel(obj(r.database_specific)?.severity);
    if (label !== undefined) best = best === undefined ? label : maxSeverity(best, label);
    for (const s of arr(r.severity)) {
      // A CVSS v3 vector, or (Ubuntu and other distribution types) a plain word.
      const score = str(obj(s)?.score);
      const base = score === undefined ? undefined : cvss3BaseScore(score);
      const sev = base === undefined ? severityFromLabel(score) : severityFromCvssScore(base);
      if (sev !== undefined) best = best === undefined ? sev : maxSeverity(best, sev);
    }
  }
  return best ?? 'info';
}
