import type { TEvidence, TSeverity } from '@palisade/contracts';
import type { TFindingLocation, TFindingSuppression, TNormalizedFinding } from '../findings/normalized-finding';
import { severityFromLabel, severityFromPriority, severityFromSarifLevel, severityFromSarifRank, severityFromSecuritySeverity } from '../findings/severity';
import {
  SEMGREP_LOGGED_OUT,
  arr,
  cvesFromText,
  cweFromNumber,
  cweFromText,
  firstLine,
  num,
  obj,
  pos,
  str,
  stripEmbeddedLinks,
  uniq,
  type TJsonObject,
} from './report-values';
import type { SarifRun } from './sarif-run';

/** One SARIF result → one normalized finding, or undefined for results that are not problems. */
export function normalizeSarifResult(
  run: SarifRun,
  result: TJsonObject,
  tool: string,
  sourceTool: TNormalizedFinding['source_tool'],
): TNormalizedFinding | undefined {
  const kind = str(result.kind) ?? 'fail';
  // "pass" and "notApplicable" report the absence of a problem; a result whose baselineState is
  // "absent" was in the baseline and is gone from this run. None of them is a finding.
  if (kind === 'pass' || kind === 'notApplicable' || result.baselineState === 'absent') return undefined;

  const rule = run.rule(result);
  const facts = ruleFacts(run, rule);
  const ruleId = str(result.ruleId) ?? str(obj(result.rule)?.id) ?? str(rule?.id) ?? 'sarif-no-rule';
  const ruleProps = facts.props;
  const resultProps = obj(result.properties) ?? {};
  const message = messageText(run, rule, result.message);

  const primary = arr(result.locations)
    .map(obj)
    .find((l) => l !== undefined);
  const physical = obj(primary?.physicalLocation);
  const region = obj(physical?.region);
  const path = run.artifactPath(physical?.artifactLocation);
  const logical = arr(primary?.logicalLocations)
    .map((l) => run.logicalName(l))
    .find((n) => n !== undefined);
  const location: TFindingLocation = {
    path,
    start_line: pos(region?.startLine),
    end_line: pos(region?.endLine) ?? pos(region?.startLine),
    start_column: pos(region?.startColumn),
    end_column: pos(region?.endColumn),
    logical,
  };

  const evidence: TEvidence[] = [];
  for (const l of arr(result.locations).slice(0, 8)) pushCodeSpan(run, evidence, obj(l));
  for (const l of arr(result.relatedLocations).slice(0, 8)) pushCodeSpan(run, evidence, obj(l));
  pushDataflows(run, evidence, result);
  const hashed = run.artifactHashes(physical?.artifactLocation);
  if (hashed !== undefined) {
    for (const [algorithm, digest] of Object.entries(hashed.hashes)) {
      if (typeof digest === 'string' && digest !== '') evidence.push({ kind: 'artifact_hash', algorithm, digest, artifact: hashed.path });
    }
  }

  const title = facts.descriptionTitle ?? firstLine(message) ?? facts.nameTitle ?? ruleId;
  // Only the rule speaks of weaknesses and CVEs (the usual case): its answer, computed once.
  const ruleOnly = resultProps.tags === undefined && resultProps.cwe === undefined && result.taxa === undefined;

  return {
    tool,
    source_tool: sourceTool,
    rule: {
      id: ruleId,
      name: facts.name,
      cwe: ruleOnly ? [...facts.cwes] : uniq([...cwes(run, rule, result, ruleProps, resultProps), ...facts.helpCwes]),
      cve: uniq([...cvesFromText(ruleId), ...facts.cves, ...(ruleOnly ? [] : cvesFromText(...arr(resultProps.tags)))]),
    },
    severity: severity(rule, result, kind, facts, resultProps),
    title,
    message,
    location,
    evidence,
    fingerprint_hint: fingerprintHint(result, location),
    suppression: suppression(result),
  };
}

/** What a result takes from its rule alone, whatever the result says: computed once per rule and run. */
export interface TRuleFacts {
  props: TJsonObject;
  name: string | undefined;
  /** The first line of the short description, and of the name: title candidates. */
  descriptionTitle: string | undefined;
  nameTitle: string | undefined;
  /** The severity the rule's short description states in words ("High severity - …", Snyk's spelling). */
  statedSeverity: TSeverity | undefined;
  /** The CWEs and CVEs of a result that adds none of its own (ruleOnly). */
  cwes: readonly string[];
  /** The CWEs the rule's help points at (part of cwes). */
  helpCwes: readonly string[];
  cves: readonly string[];
}

const NO_RULE = {};

function ruleFacts(run: SarifRun, rule: TJsonObject | undefined): TRuleFacts {
  const key = rule ?? NO_RULE;
  const known = run.ruleFacts.get(key);
  if (known !== undefined) return known;
  const props = obj(rule?.properties) ?? {};
  const shortDescription = str(obj(rule?.shortDescription)?.text);
  const describes = shortDescription !== undefined && !namesOnlyTheRule(shortDescription, str(rule?.id)) && !isUnfilledTemplate(shortDescription);
  const name = str(rule?.name) ?? (describes ? shortDescription : undefined);
  const help = helpCwes(rule);
  const facts: TRuleFacts = {
    props,
    name,
    descriptionTitle: describes ? firstLine(shortDescription) : undefined,
    nameTitle: firstLine(name),
    statedSeverity: severityFromLabel(STATED_SEVERITY.exec(shortDescription ?? '')?.[1]),
    cwes: uniq([...cwes(run, rule, {}, props, {}), ...help]),
    helpCwes: help,
    // A rule that is one advisory names its CVE in its descriptions (Snyk: "(CVE-2020-8244) bl@1.1.2").
    cves: cvesFromText(str(rule?.id), str(rule?.name), ...arr(props.tags), shortDescription, str(obj(rule?.fullDescription)?.text)),
  };
  run.ruleFacts.set(key, facts);
  return facts;
}

/**
 * Whether a short description says nothing but the rule's id: Semgrep writes "Semgrep Finding:
 * <rule id>" for every rule whose metadata has none, which as a title would hide what each result
 * says (its message is the rule's message, filled in).
 */
function namesOnlyTheRule(description: string | undefined, ruleId: string | undefined): boolean {
  if (description === undefined || ruleId === undefined) return false;
  const text = description.trim();
  if (text === ruleId) return true;
  const colon = text.lastIndexOf(': ');
  return colon > 0 && colon <= 32 && text.slice(colon + 2).trim() === ruleId;
}

/** A description that leads with a severity word: Snyk writes "High severity - Prototype Pollution vulnerability in ajv". */
const STATED_SEVERITY = /^\s*(critical|high|medium|low)\s+severity\b/i;

/**
 * Whether a text is a message template whose placeholders were never filled in: converters
 * carry Fortify's `<Replace key="PrimaryLocation.file"/>` over as is, and a "{0}" is an argument
 * slot (SARIF 3.11.5) that only a result's message fills.
 */
function isUnfilledTemplate(text: string): boolean {
  return /<Replace\s+key=|\{\d+\}/.test(text);
}

function messageText(run: SarifRun, rule: TJsonObject | undefined, message: unknown): string | undefined {
  const m = obj(message);
  if (m === undefined) return undefined;
  let text = str(m.text) ?? str(m.markdown);
  const id = str(m.id);
  if (text === undefined && id !== undefined) {
    const template = obj(obj(rule?.messageStrings)?.[id]) ?? obj(run.globalMessageStrings[id]);
    text = str(template?.text) ?? str(template?.markdown);
  }
  if (text === undefined) return undefined;
  const args = arr(m.arguments).map((a) => (typeof a === 'string' ? a : JSON.stringify(a)));
  // Placeholders are "{0}", "{1}"; a doubled brace is a literal brace (SARIF 3.11.5).
  if (args.length > 0) text = text.replace(/\{(\d+)\}/g, (whole, n: string) => args[Number(n)] ?? whole);
  return stripEmbeddedLinks(text).replace(/\{\{/g, '{').replace(/\}\}/g, '}');
}

function regionOf(
  run: SarifRun,
  location: TJsonObject | undefined,
): { path: string; start_line?: number; end_line?: number; start_column?: number; end_column?: number; snippet?: string } | undefined {
  const physical = obj(location?.physicalLocation);
  const path = run.artifactPath(physical?.artifactLocation);
  if (path === undefined) return undefined;
  const region = obj(physical?.region);
  const context = obj(physical?.contextRegion);
  return {
    path,
    start_line: pos(region?.startLine),
    end_line: pos(region?.endLine) ?? pos(region?.startLine),
    start_column: pos(region?.startColumn),
    end_column: pos(region?.endColumn),
    snippet: str(obj(region?.snippet)?.text) ?? str(obj(context?.snippet)?.text),
  };
}

function pushCodeSpan(run: SarifRun, evidence: TEvidence[], location: TJsonObject | undefined): void {
  const r = regionOf(run, location);
  if (r === undefined) return;
  const { snippet, ...region } = r;
  const span: TEvidence = snippet === undefined || run.secretScanner ? { kind: 'code_span', region } : { kind: 'code_span', region, snippet };
  // CodeQL lists a related location twice (once with its message id, once bare): one span each.
  if (!evidence.some((e) => sameCodeSpan(e, span))) evidence.push(span);
}

function sameCodeSpan(a: TEvidence, b: TEvidence): boolean {
  if (a.kind !== 'code_span' || b.kind !== 'code_span' || a.snippet !== b.snippet) return false;
  const x = a.region;
  const y = b.region;
  return x.path === y.path && x.start_line === y.start_line && x.end_line === y.end_line && x.start_column === y.start_column && x.end_column === y.end_column;
}

function pushDataflows(run: SarifRun, evidence: TEvidence[], result: TJsonObject): void {
  let flows = 0;
  for (const cf of arr(result.codeFlows)) {
    for (const tf of arr(obj(cf)?.threadFlows)) {
      if (flows >= 8) return;
      const steps: {
        region: { path: string; start_line?: number; end_line?: number; start_column?: number; end_column?: number };
        message?: string;
      }[] = [];
      for (const tfl of arr(obj(tf)?.locations)) {
        const loc = obj(obj(tfl)?.location);
        const r = regionOf(run, loc);
        if (r === undefined) continue;
        const { snippet: _snippet, ...region } = r;
        const msg = messageText(run, undefined, loc?.message);
        steps.push(msg === undefined ? { region } : { region, message: msg });
        if (steps.length >= 1000) break;
      }
      if (steps.length > 0) {
        evidence.push({ kind: 'dataflow_path', steps });
        flows++;
      }
    }
  }
}

/**
 * Precedence: a security-severity score (result, then rule: GitHub's convention, the most
 * specific statement) → a severity word in properties, or leading the rule's short description
 * → the level (result, then the rule's default) → a rank → a 1–5 priority (PMD) → SARIF's default
 * level "warning". Non-"fail" kinds without any of these are low ("review", "open") or info
 * ("informational").
 */
function severity(rule: TJsonObject | undefined, result: TJsonObject, kind: string, facts: TRuleFacts, resultProps: TJsonObject): TSeverity {
  const ruleProps = facts.props;
  const config = obj(rule?.defaultConfiguration);
  // Tolerated spellings: a score or a word as security-severity, "Error" for "error", a rank as a string.
  const securitySeverity = (v: unknown): TSeverity | undefined => severityFromSecuritySeverity(v) ?? severityFromLabel(v);
  const level = (v: unknown): TSeverity | undefined => severityFromSarifLevel(typeof v === 'string' ? v.trim().toLowerCase() : v);
  return (
    securitySeverity(resultProps['security-severity']) ??
    securitySeverity(ruleProps['security-severity']) ??
    severityFromLabel(resultProps.severity) ??
    severityFromLabel(ruleProps.severity) ??
    // Bandit's spelling (its SARIF has no level).
    severityFromLabel(resultProps.issue_severity) ??
    facts.statedSeverity ??
    (kind === 'informational' ? 'info' : undefined) ??
    level(result.level) ??
    level(config?.level) ??
    severityFromSarifRank(num(result.rank)) ??
    severityFromSarifRank(num(config?.rank)) ??
    severityFromPriority(ruleProps.priority) ??
    (kind === 'fail' ? 'medium' : 'low')
  );
}

const CWE_DEFINITION_LINK = /https?:\/\/cwe\.mitre\.org\/data\/definitions\/(\d{1,5})\.html?\b/gi;

function cwes(
  run: SarifRun,
  rule: TJsonObject | undefined,
  result: TJsonObject,
  ruleProps: TJsonObject,
  resultProps: TJsonObject,
): string[] {
  const found: (string | undefined)[] = [];
  for (const tag of [...arr(ruleProps.tags), ...arr(resultProps.tags)]) found.push(cweFromText(tag));
  // properties.cwe: "CWE-79", ["CWE-79: ..."], 79 or ["79"] depending on the tool.
  for (const c of [...arr(ruleProps.cwe), ruleProps.cwe, ...arr(resultProps.cwe), resultProps.cwe]) {
    found.push(typeof c === 'string' ? (cweFromText(c) ?? cweFromNumber(c)) : typeof c === 'number' ? cweFromNumber(c) : undefined);
  }
  // rule.relationships[].target and result.taxa[] point into a taxonomy; ids count as CWE
  // numbers only when that taxonomy is named CWE.
  const refs = [...arr(rule?.relationships).map((r) => obj(obj(r)?.target)), ...arr(result.taxa).map(obj)];
  for (const ref of refs) {
    if (ref === undefined) continue;
    const taxonomy = run.taxonomyName(ref.toolComponent);
    const id = str(ref.id);
    if (id === undefined) continue;
    found.push(taxonomy !== undefined && /cwe/i.test(taxonomy) ? cweFromNumber(id) : cweFromText(id));
  }
  return uniq(found);
}

/**
 * The CWEs a rule's help points at: a help page that is a CWE definition (ShiftLeft:
 * https://cwe.mitre.org/data/definitions/91.html), or links to one in the help text (Psalm:
 * "[CWE-384](https://cwe.mitre.org/data/definitions/384.html)"). Read once per rule (ruleFacts):
 * help texts run to kilobytes.
 */
function helpCwes(rule: TJsonObject | undefined): string[] {
  const found: (string | undefined)[] = [];
  const help = obj(rule?.help);
  for (const text of [str(rule?.helpUri), str(help?.markdown), str(help?.text)]) {
    if (text === undefined || !text.includes('cwe.mitre.org')) continue;
    for (const m of text.matchAll(CWE_DEFINITION_LINK)) found.push(cweFromNumber(m[1]));
  }
  return uniq(found);
}

/**
 * GitHub's partial fingerprint of a result's line, as it appears in a hint: its value ends in an
 * occurrence index of its own (":2" for the second identical line of a file).
 */
export const GITHUB_LINE_HASH = 'primaryLocationLineHash=';

/**
 * SARIF `fingerprints` are a full identity. `partialFingerprints` are contributions: CodeQL's
 * primaryLocationLineHash hashes the line's text (with an occurrence suffix) and is combined
 * with the path, as GitHub does; keys that say nothing about the position (gitleaks puts commit
 * metadata there) get the line and column added so two leaks in one commit stay two findings.
 */
function fingerprintHint(result: TJsonObject, location: TFindingLocation): string | undefined {
  const canonical = (o: TJsonObject): string =>
    Object.keys(o)
      .filter((k) => (typeof o[k] === 'string' && o[k] !== SEMGREP_LOGGED_OUT) || typeof o[k] === 'number')
      .sort()
      .map((k) => `${k}=${String(o[k])}`)
      .join('\n');
  const full = obj(result.fingerprints);
  const fullText = full === undefined ? '' : canonical(full);
  if (fullText !== '') return `sarif:${fullText}`;
  const partial = obj(result.partialFingerprints);
  const partialText = partial === undefined ? '' : canonical(partial);
  if (partial === undefined || partialText === '') return undefined;
  const positional = Object.keys(partial).some((k) => /location|line|hash\b|fingerprint/i.test(k) && !/^commit/i.test(k));
  const where = positional ? '' : `\n@${location.logical ?? ''}:${location.start_line ?? 0}:${location.start_column ?? 0}`;
  return `sarif-partial:${location.path ?? ''}\n${partialText}${where}`;
}

/**
 * Suppressed when at least one suppression is accepted (status absent or "accepted") and none
 * is under review or rejected (SARIF 3.27.23, 3.35.3). "state" is the pre-release spelling.
 */
function suppression(result: TJsonObject): TFindingSuppression | undefined {
  const all = arr(result.suppressions)
    .map(obj)
    .filter((s): s is TJsonObject => s !== undefined);
  if (all.length === 0) return undefined;
  const status = (s: TJsonObject): string | undefined => str(s.status) ?? str(s.state);
  if (all.some((s) => status(s) === 'underReview' || status(s) === 'rejected')) return undefined;
  const accepted = all.find((s) => status(s) === undefined || status(s) === 'accepted');
  if (accepted === undefined) return undefined;
  return {
    kind: accepted.kind === 'inSource' ? 'in_source' : 'external',
    status: status(accepted) ?? 'accepted',
    justification: str(accepted.justification),
  };
}
