import { makeHintOccurrenceCounter } from '../findings/fingerprint';
import type { TPathSegment, TSplitEvent, TValueKind } from './json-splitter';
import { ReportParseError, shapeError } from './report-parse-error';
import type { TParseReportOptions, TReportHandler, TReportItem } from './report-item';
import { str, type TJsonObject } from './report-values';
import { SarifRun } from './sarif-run';
import { GITHUB_LINE_HASH, normalizeSarifResult } from './sarif-result';
import { pickToolName } from './tool-name';

/**
 * SARIF 2.1.0. Streams `runs[]` and, inside each run, `results[]` one result at a time; keeps
 * only the run's tool (rule metadata), originalUriBaseIds, artifacts (location and hashes, never
 * contents), logicalLocations, taxonomies and the invocations' working directories. Everything
 * else (the rest of invocations, graphs, web requests...) is skipped without being decoded.
 *
 * Order: producers write `tool` before `results` (the schema lists it first and every real tool
 * does). If a run's results come first anyway, that run's results are held until the run ends
 * and then normalized with its tool: correct, at the cost of that one run's memory. Artifacts
 * written after results cannot resolve index-only artifact references of results already
 * emitted; such results keep no path (real producers put artifacts first, and give a uri too).
 * Likewise an invocation's working directory applies to the results after it.
 */
export function makeSarifHandler(options: TParseReportOptions): TReportHandler {
  let version: unknown;
  let runsSeen = false;
  let run: SarifRun | undefined;
  let runBuffered = false;

  const RUN_KEEP = new Set(['tool', 'originalUriBaseIds', 'logicalLocations', 'taxonomies']);

  const plan = (path: readonly TPathSegment[], kind: TValueKind) => {
    const d = path.length;
    if (d === 0) {
      if (kind !== 'object') throw shapeError(path, 'a SARIF log must be a JSON object');
      return 'stream' as const;
    }
    if (d === 1) {
      if (path[0] === 'version') return 'capture' as const;
      if (path[0] === 'runs') {
        if (kind !== 'array') throw shapeError(path, '"runs" must be an array');
        return 'stream' as const;
      }
      return 'skip' as const;
    }
    if (path[0] !== 'runs') return 'skip' as const;
    if (d === 2) {
      if (kind !== 'object') throw shapeError(path, 'each run must be an object');
      return 'stream' as const;
    }
    const key = path[2];
    if (d === 3) {
      if (key === 'results') {
        if (kind === 'null') return 'skip' as const;
        if (kind !== 'array') throw shapeError(path, '"results" must be an array');
        return 'stream' as const;
      }
      if (key === 'artifacts' || key === 'invocations') return kind === 'array' ? ('stream' as const) : ('skip' as const);
      if (key === 'tool' && kind !== 'object') throw shapeError(path, '"tool" must be an object');
      return RUN_KEEP.has(key as string) ? ('capture' as const) : ('skip' as const);
    }
    if (key === 'results') {
      if (d === 4 && kind !== 'object') throw shapeError(path, 'each result must be an object');
      return 'capture' as const;
    }
    if (key === 'artifacts') {
      if (d === 4) return kind === 'object' ? ('stream' as const) : ('skip' as const);
      return path[4] === 'location' || path[4] === 'hashes' ? ('capture' as const) : ('skip' as const);
    }
    // Of an invocation only its working directory and whether it succeeded: its notifications can be megabytes.
    if (key === 'invocations') {
      if (d === 4) return kind === 'object' ? ('stream' as const) : ('skip' as const);
      return d === 5 && (path[4] === 'workingDirectory' || path[4] === 'executionSuccessful') ? ('capture' as const) : ('skip' as const);
    }
    return 'skip' as const;
  };

  let named: { run: SarifRun; tool: string; sourceTool: { name: string; version?: string } | undefined } | undefined;
  const nameRun = (r: SarifRun): NonNullable<typeof named> => {
    if (named?.run !== r) {
      const driverName = str(r.driver.name)?.trim();
      const version = str(r.driver.semanticVersion) ?? str(r.driver.version);
      const sourceTool =
        driverName === undefined ? undefined : version === undefined ? { name: driverName } : { name: driverName, version };
      named = { run: r, tool: pickToolName(options.tool, driverName, 'sarif'), sourceTool };
    }
    return named;
  };
  const hintOccurrence = makeHintOccurrenceCounter();
  const emit = (r: SarifRun, result: TJsonObject, out: TReportItem[]): void => {
    const n = nameRun(r);
    r.resultCount++;
    const finding = normalizeSarifResult(r, result, n.tool, n.sourceTool);
    if (finding !== undefined) {
      r.findingCount++;
      // A fingerprint found again at another place names another result (a hash of a line's
      // text repeats wherever the line does); GitHub's primaryLocationLineHash carries its own
      // occurrence suffix, so it is taken as it is.
      const hint = finding.fingerprint_hint;
      if (hint !== undefined && !hint.includes(GITHUB_LINE_HASH)) {
        const index = hintOccurrence(finding);
        if (index > 0) finding.fingerprint_hint = `${hint}\n#${index}`;
      }
      out.push({ type: 'finding', finding });
    }
  };
  let runIndex = -1;

  const onEvent = (ev: TSplitEvent, out: TReportItem[]): void => {
    const p = ev.path;
    if (ev.type === 'value') {
      if (p.length === 1) {
        version = ev.value;
        // "2.1.0-rtm.N" is what a few producers of the final 2.1.0 pre-releases still write; the
        // shape is 2.1.0's (the one rtm spelling that differs, suppression "state", is read too).
        if (typeof version !== 'string' || !/^2\.1\.0(?:-rtm\.\d+)?$/.test(version.trim())) {
          throw new ReportParseError(
            'unsupported_version',
            `SARIF version ${JSON.stringify(version)} is not supported; send SARIF 2.1.0`,
            '/version',
          );
        }
        return;
      }
      if (run === undefined) return;
      const key = p[2];
      if (key === 'results' && p.length === 4) {
        if (!run.toolSeen || runBuffered) {
          runBuffered = true;
          run.pending.push(ev.value as TJsonObject);
        } else emit(run, ev.value as TJsonObject, out);
      } else if (key === 'tool') run.setTool(ev.value);
      else if (key === 'originalUriBaseIds') run.setOriginalUriBaseIds(ev.value);
      else if (key === 'logicalLocations') run.logicalLocations = Array.isArray(ev.value) ? ev.value : [];
      else if (key === 'taxonomies') run.setTaxonomies(ev.value);
      else if (key === 'artifacts' && p.length === 5) run.setArtifactField(p[3] as number, p[4] as string, ev.value);
      else if (key === 'invocations' && p.length === 5) {
        if (p[4] === 'workingDirectory') run.addWorkingDirectory(ev.value);
        else if (ev.value === false) options.onIncomplete?.(`run ${runIndex}: the tool's invocation did not complete successfully (executionSuccessful is false)`);
      }
      return;
    }
    if (p.length === 1 && p[0] === 'runs' && ev.type === 'enter') runsSeen = true;
    if (p.length !== 2 || p[0] !== 'runs') return;
    if (ev.type === 'enter') {
      run = new SarifRun();
      runIndex++;
      runBuffered = false;
    } else if (run !== undefined) {
      if (!run.toolSeen) throw shapeError(p, 'the run has no "tool"');
      for (const result of run.pending) emit(run, result, out);
      const n = nameRun(run);
      options.onRun?.({
        index: runIndex,
        ...(n.sourceTool === undefined ? {} : { tool: n.sourceTool }),
        results: run.resultCount,
        findings: run.findingCount,
      });
      run = undefined;
    }
  };

  const finish = (): void => {
    if (version === undefined) throw shapeError(['version'], 'the SARIF log has no "version"; send SARIF 2.1.0');
    if (!runsSeen) throw shapeError(['runs'], 'the SARIF log has no "runs" array');
  };

  return { plan, onEvent, finish };
}
