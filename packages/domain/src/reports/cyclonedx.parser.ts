import { PackageURL } from 'packageurl-js';
import type { TEvidence, TSeverity } from '@palisade/contracts';
import type { TFindingPackage, TFindingSuppression, TNormalizedFinding } from '../findings/normalized-finding';
import { maxSeverity, severityFromCvssScore, toolSeverity } from '../findings/severity';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { chainsToRoot, defined, dependencyPathEvidence, packageVulnTitle } from './package-vuln';
import { ReportParseError, shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportComponent, TReportHandler, TReportItem } from './report-item';
import { arr, cvesFromText, cweFromNumber, ecosystemFromPurl, num, obj, str, uniq, type TJsonObject } from './report-values';
import { pickToolName } from './tool-name';

/**
 * CycloneDX JSON 1.2-1.7 (SBOM, SBOM with vulnerabilities, standalone VEX). Streams
 * `components[]` (each top-level component with its nested ones) and `vulnerabilities[]`; keeps
 * a bom-ref → package table (name, version, purl, first hash) and the `dependencies` graph, both
 * proportional to the number of components, never to the file.
 *
 * One finding per vulnerability per affected ref. Vulnerabilities are normalized as they stream
 * once `components` has been read; a document that lists vulnerabilities before (or without)
 * components, such as a standalone VEX, has them held until the end so that refs can resolve.
 */
interface TRefInfo {
  pkg: TFindingPackage;
  hash?: { alg: string; content: string };
}

export function makeCycloneDxHandler(options: TParseReportOptions): TReportHandler {
  const refs = new Map<string, TRefInfo>();
  const parents = new Map<string, string[]>();
  let rootRef: string | undefined;
  let toolName: string | undefined;
  let toolVersion: string | undefined;
  let componentsDone = false;
  let bomFormat: unknown;
  const held: TJsonObject[] = [];

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'a CycloneDX document must be a JSON object');
      return 'stream' as const;
    }
    const key = path[0];
    if (d === 1) {
      if (key === 'components' || key === 'vulnerabilities') {
        if (kind === 'null') return 'skip' as const;
        if (kind !== 'array') throw shapeError(path, `"${key}" must be an array`);
        return 'stream' as const;
      }
      return key === 'bomFormat' || key === 'specVersion' || key === 'metadata' || key === 'dependencies' ? ('capture' as const) : ('skip' as const);
    }
    if (d === 2 && (key === 'components' || key === 'vulnerabilities') && kind !== 'object') throw shapeError(path, `each entry of "${key}" must be an object`);
    return 'capture' as const;
  };

  /** What a vulnerability's `affects` ref to this component resolves to: its package (and first hash). */
  const rememberRefs = (c: TJsonObject, name: string): void => {
    const group = str(c.group);
    const purl = str(c.purl);
    const info: TRefInfo = { pkg: defined({ name: group === undefined ? ungroupedName(name, purl) : `${group}/${name}`, version: str(c.version), purl, ecosystem: ecosystemFromPurl(purl) }) };
    const h = obj(arr(c.hashes)[0]);
    if (str(h?.alg) !== undefined && str(h?.content) !== undefined) info.hash = { alg: str(h?.alg) as string, content: str(h?.content) as string };
    const ref = str(c['bom-ref']);
    if (ref !== undefined && !refs.has(ref)) refs.set(ref, info);
    if (purl !== undefined && !refs.has(purl)) refs.set(purl, info);
  };

  const addComponent = (c: TJsonObject, out: TReportItem[], depth: number): void => {
    const name = str(c.name);
    if (name !== undefined) {
      const group = str(c.group);
      const purl = str(c.purl);
      const component: TReportComponent = defined({
        name,
        group,
        version: str(c.version),
        purl,
        type: str(c.type),
        licenses: licensesOf(c.licenses),
        bom_ref: str(c['bom-ref']),
      });
      out.push({ type: 'component', component });
      rememberRefs(c, name);
    }
    // Assemblies nest components; depth is bounded so a hostile document cannot recurse forever.
    if (depth < 32) for (const child of arr(c.components)) if (obj(child)) addComponent(obj(child) as TJsonObject, out, depth + 1);
  };

  const resolveRef = (ref: string): TRefInfo => {
    const known = refs.get(ref);
    if (known !== undefined) return known;
    // BOM-Link (urn:cdx:serial/version#bom-ref): the fragment is the ref in the other BOM.
    const hash = ref.indexOf('#');
    let local = ref;
    if (ref.startsWith('urn:cdx:') && hash >= 0) {
      try {
        local = decodeURIComponent(ref.slice(hash + 1));
      } catch {
        local = ref.slice(hash + 1);
      }
    }
    const linked = refs.get(local);
    if (linked !== undefined) return linked;
    if (local.startsWith('pkg:')) {
      try {
        const p = PackageURL.fromString(local);
        return { pkg: defined({ name: packageNameOf(p), version: p.version ?? undefined, purl: local, ecosystem: p.type }) };
      } catch {
        // Not a valid purl: fall through to the ref itself as the name.
      }
    }
    return { pkg: { name: local } };
  };

  const emitVulnerability = (v: TJsonObject, out: TReportItem[]): void => {
    const id = str(v.id) ?? str(v['bom-ref']) ?? 'cyclonedx-vulnerability';
    const refIds = arr(v.references).map((r) => str(obj(r)?.id));
    const severity = ratingSeverity(v.ratings);
    const cwe = uniq(arr(v.cwes).map(cweFromNumber));
    const cve = cvesFromText(id, ...refIds);
    const aliases = uniq(refIds).filter((r) => r !== id && !cve.includes(r));
    const suppression = vexSuppression(v.analysis);
    const description = str(v.description) ?? str(v.detail);
    const recommendation = str(v.recommendation);
    const tool = pickToolName(options.tool, toolName, 'cyclonedx');
    const sourceTool = toolName === undefined ? undefined : defined({ name: toolName, version: toolVersion });
    const affects = arr(v.affects).map(obj).filter((a): a is TJsonObject => a !== undefined && str(a.ref) !== undefined);
    const base = (pkg: TFindingPackage | undefined, evidence: TEvidence[], ranges: string[]): TNormalizedFinding =>
      defined({
        tool,
        source_tool: sourceTool,
        rule: defined({ id, name: str(v.title), cwe, cve, aliases: aliases.length === 0 ? undefined : aliases }),
        severity,
        title: packageVulnTitle(id, pkg),
        message:
          [description, recommendation === undefined ? undefined : `Recommendation: ${recommendation}`, ranges.length === 0 ? undefined : `Affected versions: ${ranges.join(', ')}`]
            .filter((x) => x !== undefined)
            .join('\n\n') || undefined,
        location: pkg === undefined ? {} : { package: pkg },
        evidence,
        suppression,
      });
    if (affects.length === 0) {
      out.push({ type: 'finding', finding: base(undefined, [], []) });
      return;
    }
    for (const a of affects) {
      const ref = str(a.ref) as string;
      const info = resolveRef(ref);
      const versions = arr(a.versions).map(obj).filter((x): x is TJsonObject => x !== undefined);
      const status = (x: TJsonObject): string => str(x.status) ?? 'affected';
      // The entry naming the installed version exactly decides; otherwise an affects entry whose
      // versions are all "unaffected" says the component is not hit. Ranges (vers:) are shown,
      // not evaluated: a wrong evaluation would drop a real finding.
      const installed = info.pkg.version;
      const exact = installed === undefined ? undefined : versions.find((x) => str(x.version) === installed);
      if (exact !== undefined ? status(exact) === 'unaffected' : versions.length > 0 && versions.every((x) => status(x) === 'unaffected')) continue;
      const ranges = uniq(versions.filter((x) => status(x) !== 'unaffected').map((x) => str(x.range)));
      const evidence: TEvidence[] = [];
      const chains = parents.size === 0 ? [] : chainsToRoot(ref, (n) => parents.get(n) ?? [], (n) => n === rootRef, 4);
      const name = (n: string): string => refs.get(n)?.pkg.purl ?? refs.get(n)?.pkg.name ?? n;
      if (chains.length === 0) evidence.push(dependencyPathEvidence(info.pkg, undefined, undefined));
      for (const chain of chains) evidence.push(dependencyPathEvidence(info.pkg, chain.map(name), undefined));
      if (info.hash !== undefined) evidence.push({ kind: 'artifact_hash', algorithm: info.hash.alg.toLowerCase(), digest: info.hash.content, artifact: info.pkg.purl ?? info.pkg.name });
      out.push({ type: 'finding', finding: base(info.pkg, evidence, ranges) });
    }
  };

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    const p = ev.path;
    if (ev.type === 'exit') {
      if (p.length === 1 && p[0] === 'components') componentsDone = true;
      return;
    }
    if (ev.type !== 'value') return;
    const key = p[0];
    if (p.length === 1) {
      if (key === 'bomFormat') {
        bomFormat = ev.value;
        if (bomFormat !== 'CycloneDX') throw shapeError(p, '"bomFormat" must be "CycloneDX"');
      } else if (key === 'specVersion') {
        // "1.5" per the schema; some generators write 1.5 (a number) or "1.5.0".
        const spec = typeof ev.value === 'number' ? String(ev.value) : ev.value;
        if (typeof spec !== 'string' || !/^1\.\d+(?:\.\d+)?$/.test(spec.trim())) {
          throw new ReportParseError('unsupported_version', `CycloneDX specVersion ${JSON.stringify(ev.value)} is not supported; send 1.x JSON`, '/specVersion');
        }
      } else if (key === 'metadata') readMetadata(obj(ev.value));
      else if (key === 'dependencies') {
        for (const [i, d] of validDependencies(ev.value).entries()) {
          const ref = d.ref as string;
          for (const [j, child] of arr(d.dependsOn).entries()) {
            const c = refLink(child, ['dependencies', i, 'dependsOn', j]);
            const list = parents.get(c);
            if (list === undefined) parents.set(c, [ref]);
            else if (!list.includes(ref)) list.push(ref);
          }
        }
      }
      return;
    }
    if (p.length !== 2) return;
    if (key === 'components') addComponent(ev.value as TJsonObject, out, 0);
    else if (key === 'vulnerabilities') {
      if (componentsDone) emitVulnerability(ev.value as TJsonObject, out);
      else held.push(ev.value as TJsonObject);
    }
  };

  const readMetadata = (m: TJsonObject | undefined): void => {
    const subject = obj(m?.component);
    rootRef = str(subject?.['bom-ref']);
    // The BOM's own subject is no component of it, but a VEX may say it is the affected one.
    const subjectName = str(subject?.name);
    if (subject !== undefined && subjectName !== undefined) rememberRefs(subject, subjectName);
    // metadata.tools: an array of {vendor, name, version} (<= 1.4) or {components: [...]} (1.5+).
    const tools = obj(m?.tools);
    const first = obj(Array.isArray(m?.tools) ? m?.tools[0] : arr(tools?.components)[0] ?? arr(tools?.services)[0]);
    toolName = str(first?.name);
    toolVersion = str(first?.version);
  };

  const finish = (out: TReportItem[]): void => {
    if (bomFormat === undefined) throw shapeError(['bomFormat'], 'the document has no "bomFormat"; is it CycloneDX JSON?');
    for (const v of held.splice(0, held.length)) emitVulnerability(v, out);
  };

  return { plan, onEvent, finish };
}

function licensesOf(value: unknown): string[] {
  const out: (string | undefined)[] = [];
  for (const entry of arr(value)) {
    const e = obj(entry);
    const lic = obj(e?.license);
    out.push(str(e?.expression) ?? str(lic?.id) ?? str(lic?.name));
  }
  return uniq(out);
}

/** The highest severity any rating states (a vendor's "none" does not lower another's "high"). */
function ratingSeverity(ratings: unknown): TSeverity {
  let best: TSeverity | undefined;
  for (const r of arr(ratings).map(obj)) {
    if (r === undefined) continue;
    // A bare score is read on CVSS's 0-10 scale only when the method is CVSS (or unnamed): an
    // OWASP Risk Rating or another method's score has a scale of its own.
    const method = str(r.method);
    const cvssScore = method === undefined || /^cvss/i.test(method) ? num(r.score) : undefined;
    const s = toolSeverity.cyclonedx(r.severity) ?? (cvssScore === undefined ? undefined : severityFromCvssScore(cvssScore));
    if (s === undefined || (s === 'info' && r.severity === 'unknown')) continue;
    best = best === undefined ? s : maxSeverity(best, s);
  }
  return best ?? 'info';
}

/**
 * VEX: not_affected, false_positive and resolved(_with_pedigree) dismiss the finding; the
 * justification reads "<justification>: <detail> (response: <responses>)" with what is given.
 */
function vexSuppression(analysis: unknown): TFindingSuppression | undefined {
  const a = obj(analysis);
  const state = str(a?.state);
  if (state === undefined || !['not_affected', 'false_positive', 'resolved', 'resolved_with_pedigree'].includes(state)) return undefined;
  const responses = uniq((Array.isArray(a?.response) ? a?.response : [a?.response]).map(str));
  const why = [str(a?.justification), str(a?.detail)].filter((x) => x !== undefined).join(': ');
  const text = [why === '' ? undefined : why, responses.length === 0 ? undefined : `(response: ${responses.join(', ')})`].filter((x) => x !== undefined).join(' ');
  return text === '' ? { kind: 'vex', status: state } : { kind: 'vex', status: state, justification: text };
}

/**
 * The `dependencies` graph, checked as the schema requires (bom-1.2 to 1.7): an array of objects
 * each naming its component by a non-empty `ref`. A graph edge without an end cannot be placed,
 * so such a document is refused rather than half-read. null counts as absent.
 */
function validDependencies(value: unknown): TJsonObject[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw shapeError(['dependencies'], '"dependencies" must be an array');
  return value.map((d, i) => {
    const dep = obj(d);
    if (dep === undefined) throw shapeError(['dependencies', i], 'each dependency must be an object');
    refLink(dep.ref, ['dependencies', i, 'ref']);
    if (dep.dependsOn !== undefined && dep.dependsOn !== null && !Array.isArray(dep.dependsOn)) throw shapeError(['dependencies', i, 'dependsOn'], '"dependsOn" must be an array of refs');
    return dep;
  });
}

/** A bom-ref reference: a non-empty string (refLinkType, minLength 1). */
function refLink(value: unknown, path: (string | number)[]): string {
  if (typeof value === 'string' && value !== '') return value;
  const field = path[path.length - 1] === 'ref' ? '"ref"' : '"dependsOn" entry';
  throw shapeError(path, value === undefined ? `each dependency needs a "ref" naming its component` : `a dependency ${field} must be a non-empty bom-ref string`);
}

/**
 * Purl types whose namespace is the distribution that ships the package (pkg:apk/alpine/busybox,
 * pkg:deb/debian/curl), not part of its name: producers name such components "busybox", "curl".
 */
const DISTRO_PURL_TYPES = new Set(['apk', 'deb', 'rpm', 'alpm', 'qpkg']);

/**
 * The package name of a component without a group: syft names a Maven artifact "log4j-core" and
 * keeps its group only in the purl; the group comes back from there, so that the component and a
 * ref that resolves only through the purl (a standalone VEX) name one package. A name that has
 * its namespace already (a Go module path, a scoped npm name) stays as it is.
 */
function ungroupedName(name: string, purl: string | undefined): string {
  if (purl === undefined || name.includes('/')) return name;
  try {
    const p = PackageURL.fromString(purl);
    return p.name === name ? packageNameOf(p) : name;
  } catch {
    return name;
  }
}

/**
 * A package's name from its purl, as producers name the component (a scoped npm name, a Maven
 * group, a Go module path keep their namespace), so that a ref resolved through its purl names
 * the package as a listed component would, and both give one fingerprint.
 */
function packageNameOf(p: PackageURL): string {
  return p.namespace && !DISTRO_PURL_TYPES.has(p.type) ? `${p.namespace}/${p.name}` : p.name;
}
