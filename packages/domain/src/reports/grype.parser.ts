import type { TEvidence } from '@palisade/contracts';
import type { TFindingPackage, TFindingSuppression } from '../findings/normalized-finding';
import { severityFromCvssScore, toolSeverity } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { defined, dependencyPathEvidence, digestEvidence, packageVulnTitle } from './package-vuln';
import { shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { arr, cvesFromText, cweFromNumber, ecosystemFromPurl, num, obj, str, uniq, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * Grype JSON (`grype -o json`), from the 2021 schema (vulnerability.links, cvssV2/cvssV3,
 * fixedInVersion) to the current one (cvss[], fix{versions,state}, relatedVulnerabilities,
 * epss, cwes). Streams `matches[]` and `ignoredMatches[]`; each match is self-contained, so
 * nothing else is kept beyond the descriptor's version.
 *
 * An ignored match (a rule of the grype config, or a VEX document given with --vex) is still
 * a finding, stored dismissed with the rule as its reason: dropped, the finding a user
 * ignores would turn `fixed` at the next report, though nothing was fixed.
 */
export function makeGrypeHandler(options: TParseReportOptions): TReportHandler {
  let version: string | undefined;
  let sawMatches = false;

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'a Grype report must be a JSON object');
      return 'stream' as const;
    }
    const list = path[0] === 'matches' || path[0] === 'ignoredMatches';
    if (d === 1) {
      if (list) {
        if (kind === 'null') return 'skip' as const;
        if (kind !== 'array') throw shapeError(path, `"${path[0]}" must be an array`);
        return 'stream' as const;
      }
      return path[0] === 'descriptor' ? ('capture' as const) : ('skip' as const);
    }
    if (list && d === 2 && kind !== 'object') throw shapeError(path, 'each match must be an object');
    return list ? ('capture' as const) : ('skip' as const);
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    if (ev.type === 'enter' && ev.path.length === 1 && ev.path[0] === 'matches') sawMatches = true;
    if (ev.type !== 'value') return;
    if (ev.path[0] === 'descriptor') {
      version = str(obj(ev.value)?.version);
      return;
    }
    const m = ev.value as TJsonObject;
    const suppression = ev.path[0] === 'ignoredMatches' ? ignoreSuppression(m.appliedIgnoreRules) : undefined;
    const v = obj(m.vulnerability) ?? {};
    const related = arr(m.relatedVulnerabilities).map(obj).filter((r): r is TJsonObject => r !== undefined);
    const a = obj(m.artifact) ?? {};
    const id = str(v.id) ?? 'grype-vulnerability';
    const purl = str(a.purl);
    const name = str(a.name);
    const pkg: TFindingPackage | undefined =
      name === undefined ? undefined : defined({ name, version: str(a.version), purl, ecosystem: ecosystemFromPurl(purl) ?? str(a.type)?.toLowerCase() });
    const fix = obj(v.fix);
    const fixed = fix !== undefined ? (fix.state === 'fixed' ? arr(fix.versions).map(str).filter((x): x is string => x !== undefined) : []) : uniq([str(v.fixedInVersion)]);
    const locations = arr(a.locations).map(obj).filter((l): l is TJsonObject => l !== undefined);
    const evidence: TEvidence[] = [];
    if (pkg !== undefined) evidence.push(dependencyPathEvidence(pkg, undefined, fixed));
    for (const l of locations.slice(0, 4)) {
      const e = digestEvidence(str(l.layerID), str(l.path));
      if (e !== undefined) evidence.push(e);
    }
    const description = str(v.description) ?? related.map((r) => str(r.description)).find((x) => x !== undefined);
    const matched = matchedBy(m.matchDetails);
    const cve = cvesFromText(id, ...related.map((r) => r.id));
    const aliases = uniq(related.map((r) => str(r.id))).filter((r) => r !== id && !cve.includes(r));
    out.push({
      type: 'finding',
      finding: defined({
        tool: pickToolName(options.tool, 'grype', 'grype'),
        source_tool: defined({ name: 'grype', version }),
        rule: defined({
          id,
          cwe: uniq(arr(v.cwes).map((c) => (typeof c === 'object' ? cweFromNumber(obj(c)?.cwe) : cweFromNumber(c)))),
          cve,
          aliases: aliases.length === 0 ? undefined : aliases,
        }),
        severity: severity(v, related),
        title: packageVulnTitle(id, pkg),
        message: [description, matched === undefined ? undefined : `Matched by ${matched}`].filter((x) => x !== undefined).join('\n\n') || undefined,
        location: defined({ path: str(locations[0]?.path), package: pkg }),
        evidence,
        suppression,
      }),
    });
  };

  const finish = (): void => {
    if (!sawMatches) throw shapeError(['matches'], 'the Grype report has no "matches" array');
  };

  return { plan, onEvent, finish };
}

/**
 * Why grype ignored a match, from its applied rules: a VEX statement (`vex-status`, with its
 * justification) or a rule of the config (its `reason`, else what it matched on).
 */
function ignoreSuppression(applied: unknown): TFindingSuppression {
  const rules = arr(applied).map(obj).filter((r): r is TJsonObject => r !== undefined);
  const vex = rules.find((r) => str(r['vex-status']) !== undefined);
  if (vex !== undefined) return defined({ kind: 'vex' as const, status: str(vex['vex-status']), justification: str(vex['vex-justification']) ?? str(vex.reason) });
  const reasons = uniq(rules.map((r) => str(r.reason) ?? ruleDescription(r)));
  return defined({ kind: 'tool' as const, status: 'ignored', justification: reasons.length === 0 ? undefined : reasons.slice(0, 4).join('; ') });
}

/** An ignore rule without a reason, told by what it matches: "ignore rule: CVE-2021-1234, fix-state not-fixed". */
function ruleDescription(rule: TJsonObject): string | undefined {
  const pkg = obj(rule.package);
  const labelled = (label: string, value: unknown): string | undefined => (str(value) === undefined ? undefined : `${label} ${str(value)}`);
  const name = [str(pkg?.name), str(pkg?.version)].filter((x) => x !== undefined).join('@');
  const parts = [
    str(rule.vulnerability),
    labelled('fix-state', rule['fix-state']),
    labelled('package', name === '' ? undefined : name),
    labelled('type', pkg?.type),
    labelled('location', pkg?.location),
    labelled('match-type', rule['match-type']),
  ].filter((x) => x !== undefined);
  return parts.length === 0 ? undefined : `ignore rule: ${parts.join(', ')}`;
}

/**
 * How grype matched: `matchDetails` is one object {matcher, searchKey, matchInfo} in the 2021
 * schema and a list of {type, matcher, searchedBy, found} since; "cpe-match (java-matcher)".
 */
function matchedBy(details: unknown): string | undefined {
  const list = Array.isArray(details) ? details : [details];
  const parts = uniq(
    list.map(obj).map((d) => {
      const type = str(d?.type);
      const matcher = str(d?.matcher);
      return type !== undefined && matcher !== undefined ? `${type} (${matcher})` : type ?? matcher;
    }),
  );
  return parts.length === 0 ? undefined : parts.slice(0, 4).join(', ');
}

/** Grype's own label; when it is Unknown, the best CVSS base score it lists (own, then related). */
function severity(v: TJsonObject, related: TJsonObject[]): ReturnType<typeof toolSeverity.grype> {
  const label = toolSeverity.grype(v.severity);
  if (label !== 'info' || /negligible/i.test(String(v.severity))) return label;
  const scores: number[] = [];
  for (const source of [v, ...related]) {
    for (const c of arr(source.cvss)) {
      const s = num(obj(obj(c)?.metrics)?.baseScore);
      if (s !== undefined) scores.push(s);
    }
    for (const k of ['cvssV3', 'cvssV2']) {
      const s = num(obj(source[k])?.baseScore);
      if (s !== undefined) scores.push(s);
    }
  }
  return scores.length === 0 ? label : severityFromCvssScore(Math.max(...scores)) ?? label;
}
