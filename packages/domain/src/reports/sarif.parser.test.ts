import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer, parseReportStream } from './parse-report';
import { ReportParseError } from './report-parse-error';
import { CORPUS_DIR, describeCorpus, parseCorpusFile } from './testing/corpus';
import { syntheticSarif } from './testing/synthetic-sarif';

async function findings(log: object | string, tool?: string): Promise<TNormalizedFinding[]> {
  const items = await parseReportBuffer('sarif', typeof log === 'string' ? log : JSON.stringify(log), tool === undefined ? {} : { tool });
  return items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
}

async function parseError(body: string | Buffer): Promise<ReportParseError> {
  try {
    await parseReportBuffer('sarif', body);
  } catch (err) {
    if (err instanceof ReportParseError) return err;
    throw err;
  }
  throw new Error('expected a ReportParseError');
}

const log = (run: object): object => ({ version: '2.1.0', runs: [run] });
const at = (uri: string, startLine?: number, extra: object = {}): object => ({
  physicalLocation: { artifactLocation: { uri }, ...(startLine === undefined ? {} : { region: { startLine } }), ...extra },
});

describe('SARIF parser: rules, severity, taxonomy', () => {
  const driver = {
    name: 'Scanner',
    version: '1.2',
    rules: [
      { id: 'R0', shortDescription: { text: 'Rule zero' }, defaultConfiguration: { level: 'note' }, properties: { tags: ['security', 'external/cwe/cwe-079'] } },
      { id: 'R1', name: 'RuleOne', defaultConfiguration: { level: 'error' }, properties: { 'security-severity': '9.1' }, relationships: [{ target: { id: '89', toolComponent: { name: 'CWE' } } }] },
      { id: 'CVE-2021-44228', messageStrings: { default: { text: 'Package {0} is vulnerable ({1}).' } } },
    ],
  };
  const extensions = [{ name: 'security-pack', rules: [{ id: 'S1', shortDescription: { text: 'Extension rule' }, defaultConfiguration: { level: 'warning' } }] }];

  it('resolves rules by index, by id, and in tool extensions', async () => {
    const fs = await findings(
      log({
        tool: { driver, extensions },
        results: [
          { ruleIndex: 0, message: { text: 'by index' }, locations: [at('a.js', 1)] },
          { ruleId: 'R1', message: { text: 'by id' }, locations: [at('a.js', 2)] },
          { ruleId: 'S1', rule: { id: 'S1', index: 0, toolComponent: { index: 0 } }, message: { text: 'extension by index' }, locations: [at('a.js', 3)] },
          { ruleId: 'S1', message: { text: 'extension by id' }, locations: [at('a.js', 4)] },
          { ruleId: 'R0/sub', message: { text: 'hierarchical' }, locations: [at('a.js', 5)] },
        ],
      }),
    );
    expect(fs.map((f) => [f.rule.id, f.title, f.severity])).toEqual([
      ['R0', 'Rule zero', 'low'],
      ['R1', 'by id', 'critical'],
      ['S1', 'Extension rule', 'medium'],
      ['S1', 'Extension rule', 'medium'],
      ['R0/sub', 'Rule zero', 'low'],
    ]);
    expect(fs[0].rule.cwe).toEqual(['CWE-79']);
    expect(fs[1].rule.cwe).toEqual(['CWE-89']);
    expect(fs[0].source_tool).toEqual({ name: 'Scanner', version: '1.2' });
  });

  it('tolerates a result whose rule is not in the driver', async () => {
    const [f] = await findings(log({ tool: { driver }, results: [{ ruleId: 'missing', message: { text: 'm' }, locations: [at('a.js', 1)] }] }));
    expect(f.rule.id).toBe('missing');
    expect(f.severity).toBe('medium');
  });

  it('orders severity: security-severity > properties severity > level > rule default > rank > warning', async () => {
    const fs = await findings(
      log({
        tool: { driver },
        results: [
          { ruleId: 'R0', level: 'error', properties: { 'security-severity': '2.0' }, message: { text: '1' } },
          { ruleId: 'R0', level: 'error', message: { text: '2' } },
          { ruleId: 'R0', message: { text: '3' } },
          { ruleId: 'x', rank: 95, message: { text: '4' } },
          { ruleId: 'x', properties: { severity: 'CRITICAL' }, level: 'note', message: { text: '5' } },
          { ruleId: 'x', kind: 'informational', message: { text: '6' } },
          { ruleId: 'x', message: { text: '7' } },
        ],
      }),
    );
    expect(fs.map((f) => f.severity)).toEqual(['low', 'high', 'low', 'critical', 'critical', 'info', 'medium']);
  });

  it('fills message templates and reads CVE ids from the rule', async () => {
    const [f] = await findings(log({ tool: { driver }, results: [{ ruleIndex: 2, message: { id: 'default', arguments: ['log4j-core', 'critical'] } }] }));
    expect(f.message).toBe('Package log4j-core is vulnerable (critical).');
    expect(f.rule.cve).toEqual(['CVE-2021-44228']);
  });

  it('skips results that are not problems: kind pass / notApplicable, baselineState absent', async () => {
    const fs = await findings(
      log({
        tool: { driver },
        results: [
          { ruleId: 'R0', kind: 'pass', message: { text: 'ok' } },
          { ruleId: 'R0', kind: 'notApplicable', message: { text: 'n/a' } },
          { ruleId: 'R0', baselineState: 'absent', message: { text: 'gone' } },
          { ruleId: 'R0', baselineState: 'new', message: { text: 'new' } },
        ],
      }),
    );
    expect(fs.map((f) => f.message)).toEqual(['new']);
  });

  it('reads CWE from result taxa pointing into a CWE taxonomy', async () => {
    const [f] = await findings(
      log({ tool: { driver }, taxonomies: [{ name: 'CWE', taxa: [{ id: '22' }] }], results: [{ ruleId: 'x', message: { text: 'm' }, taxa: [{ id: '22', toolComponent: { index: 0 } }] }] }),
    );
    expect(f.rule.cwe).toEqual(['CWE-22']);
  });
});

describe('SARIF parser: locations and evidence', () => {
  it('makes absolute file URIs relative to originalUriBaseIds and resolves artifact indexes', async () => {
    const fs = await findings(
      log({
        tool: { driver: { name: 'T' } },
        originalUriBaseIds: { SRC: { uri: 'file:///home/ci/work/repo/' } },
        artifacts: [{ location: { uri: 'lib/util%20x.js', uriBaseId: 'SRC' }, contents: { text: 'not kept' }, hashes: { 'sha-256': 'ab'.repeat(32) } }],
        results: [
          { ruleId: 'a', message: { text: '1' }, locations: [at('file:///home/ci/work/repo/src/main.js', 3)] },
          { ruleId: 'a', message: { text: '2' }, locations: [{ physicalLocation: { artifactLocation: { index: 0 }, region: { startLine: 9 } } }] },
          { ruleId: 'a', message: { text: '3' }, locations: [at('.\\win\\path.cs', 1)] },
          { ruleId: 'a', message: { text: '4' }, locations: [{ logicalLocations: [{ fullyQualifiedName: 'pkg.Class.method' }] }] },
        ],
      }),
    );
    expect(fs.map((f) => f.location.path)).toEqual(['src/main.js', 'lib/util x.js', 'win/path.cs', undefined]);
    expect(fs[1].evidence).toContainEqual({ kind: 'artifact_hash', algorithm: 'sha-256', digest: 'ab'.repeat(32), artifact: 'lib/util x.js' });
    expect(fs[3].location.logical).toBe('pkg.Class.method');
  });

  it('turns code flows into dataflow evidence and related locations into code spans', async () => {
    const step = (line: number, text: string): object => ({ location: { ...at('a.js', line), message: { text } } });
    const [f] = await findings(
      log({
        tool: { driver: { name: 'T' } },
        results: [
          {
            ruleId: 'taint',
            message: { text: 'flows from [here](1)' },
            locations: [at('a.js', 30, { region: { startLine: 30, snippet: { text: 'sink(x)' } } })],
            relatedLocations: [{ id: 1, ...at('a.js', 10) }],
            codeFlows: [{ threadFlows: [{ locations: [step(10, 'source'), step(20, 'through'), step(30, 'sink')] }] }],
          },
        ],
      }),
    );
    expect(f.message).toBe('flows from here');
    expect(f.evidence).toEqual([
      { kind: 'code_span', region: { path: 'a.js', start_line: 30, end_line: 30 }, snippet: 'sink(x)' },
      { kind: 'code_span', region: { path: 'a.js', start_line: 10, end_line: 10 } },
      {
        kind: 'dataflow_path',
        steps: [10, 20, 30].map((line, i) => ({ region: { path: 'a.js', start_line: line, end_line: line }, message: ['source', 'through', 'sink'][i] })),
      },
    ]);
  });

  it('keeps suppressed results as suppressed findings, unless a suppression is under review or rejected', async () => {
    const fs = await findings(
      log({
        tool: { driver: { name: 'T' } },
        results: [
          { ruleId: 'a', message: { text: '1' }, suppressions: [{ kind: 'inSource', justification: 'test fixture' }] },
          { ruleId: 'a', message: { text: '2' }, suppressions: [{ kind: 'external', status: 'underReview' }] },
          { ruleId: 'a', message: { text: '3' }, suppressions: [{ kind: 'external', status: 'rejected' }] },
          { ruleId: 'a', message: { text: '4' } },
        ],
      }),
    );
    expect(fs.map((f) => f.suppression)).toEqual([{ kind: 'in_source', status: 'accepted', justification: 'test fixture' }, undefined, undefined, undefined]);
  });

  it('holds a run whose results precede its tool until the run ends, then normalizes them with it', async () => {
    const body = '{"version":"2.1.0","runs":[{"results":[{"ruleIndex":0,"message":{"text":"early"}}],"tool":{"driver":{"name":"Late","rules":[{"id":"L1","defaultConfiguration":{"level":"error"}}]}}}]}';
    const [f] = await findings(body);
    expect([f.rule.id, f.severity, f.tool]).toEqual(['L1', 'high', 'late']);
  });

  it('names the tool after the driver unless the caller names it', async () => {
    const body = log({ tool: { driver: { name: 'CodeQL command-line toolchain' } }, results: [{ ruleId: 'a', message: { text: 'm' } }] });
    expect((await findings(body))[0].tool).toBe('codeql-command-line-toolchain');
    expect((await findings(body, 'codeql'))[0].tool).toBe('codeql');
  });
});

describe('SARIF parser: rejected reports', () => {
  const good = JSON.stringify(log({ tool: { driver: { name: 'T' } }, results: [{ ruleId: 'a', message: { text: 'm' } }] }));

  it('rejects another SARIF version', async () => {
    const err = await parseError(good.replace('2.1.0', '2.0.0'));
    expect([err.code, err.pointer]).toEqual(['unsupported_version', '/version']);
  });

  it('rejects a log without version or runs, or with runs of the wrong type', async () => {
    expect((await parseError('{"runs": []}')).code).toBe('invalid_shape');
    expect((await parseError('{"version": "2.1.0"}')).pointer).toBe('/runs');
    expect((await parseError('{"version": "2.1.0", "runs": {}}')).pointer).toBe('/runs');
    expect((await parseError('{"version": "2.1.0", "runs": [{"results": []}]}')).pointer).toBe('/runs/0');
    expect((await parseError('{"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": [1]}]}')).pointer).toBe('/runs/0/results/0');
  });

  it('rejects something that is not a SARIF object', async () => {
    expect((await parseError('[]')).code).toBe('invalid_shape');
    expect((await parseError('"sarif"')).code).toBe('invalid_shape');
    expect((await parseError('not json')).code).toBe('invalid_json');
    expect((await parseError('')).code).toBe('empty_report');
  });

  it('rejects a truncated log, even after results were already yielded', async () => {
    const body = Buffer.concat([...syntheticSarif(200)]);
    const truncated = body.subarray(0, Math.floor(body.length * 0.7));
    let yielded = 0;
    let error: unknown;
    try {
      for await (const item of parseReportStream('sarif', [truncated.subarray(0, 40000), truncated.subarray(40000)])) if (item.type === 'finding') yielded++;
    } catch (err) {
      error = err;
    }
    expect(yielded).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ReportParseError);
    expect((error as ReportParseError).code).toBe('truncated_report');
  });
});

describe('SARIF parser: streaming', () => {
  it('streams a large log with flat memory', async () => {
    const count = 60_000; // ~55 MB of SARIF, generated lazily so the text never exists whole
    async function* source(): AsyncGenerator<Buffer> {
      yield* syntheticSarif(count);
    }
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let n = 0;
    for await (const item of parseReportStream('sarif', source())) {
      if (item.type === 'finding' && ++n % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(n).toBe(count);
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
  });
});

describeCorpus('SARIF corpus (facts from MANIFEST.md)', () => {
  it('CodeQL 2.5.4: 72 findings; [7] good/mod_user.py:33, high, py/call/wrong-named-argument, with the code snippet', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/dd_codeql-2.5.4_python.sarif');
    expect(fs).toHaveLength(72);
    expect(fs[7]).toMatchObject({ severity: 'high', rule: { id: 'py/call/wrong-named-argument' }, location: { path: 'good/mod_user.py', start_line: 33 } });
    expect(fs[7].evidence[0]).toMatchObject({ kind: 'code_span', snippet: expect.stringContaining('libsession.create(request=request') });
    expect(fs.every((f) => f.fingerprint_hint?.startsWith('sarif-partial:'))).toBe(true);
  });

  it('spec appendix K.4: 1 finding at collections/list.h:15, high, a 3-step code flow (15, 15, 25), suppressed', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/dd_spec-appendix-k-comprehensive.sarif');
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ severity: 'high', location: { path: 'collections/list.h', start_line: 15, logical: 'collections::list::add' }, suppression: { kind: 'external' } });
    const flow = fs[0].evidence.find((e) => e.kind === 'dataflow_path');
    expect(flow?.kind === 'dataflow_path' && flow.steps.map((s) => s.region.start_line)).toEqual([15, 15, 25]);
  });

  it.each([
    ['sarif/dd_spec-appendix-k1-minimal-empty.sarif'],
    ['sarif/dd_spec-appendix-k1-two-runs-empty.sarif'],
    ['sarif/dd_no-runs.sarif'],
    ['sarif/codeql-action_tool-names-5-runs.sarif'],
  ])('%s: valid and empty → 0 findings', async (file) => {
    expect((await parseCorpusFile('sarif', file)).findings).toHaveLength(0);
  });

  it('sarif-sdk suppression test: 4 findings, [0] titled "New suppressed result.", 3 suppressed', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/dd_sarif-sdk_SuppressionTestCurrent.sarif');
    expect(fs).toHaveLength(4);
    expect(fs[0].title).toBe('New suppressed result.');
    expect(fs.map((f) => f.suppression?.kind)).toEqual(['external', 'external', 'external', undefined]);
    expect(fs[0].location.path).toBe('C:/code/file1.c');
  });

  it('gitleaks 7 SARIF: 8 findings, medium, titles and locations as DefectDojo asserts', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/dd_gitleaks-7.sarif');
    expect(fs).toHaveLength(8);
    const dir = 'dojo/unittests/scans/gitlab_secret_detection_report/';
    expect(fs[0]).toMatchObject({ title: 'AWS Access Key secret detected', severity: 'medium', location: { path: `${dir}gitlab_secret_detection_report_1_vuln.json`, start_line: 13 } });
    expect(fs[3]).toMatchObject({ title: 'AWS Access Key secret detected', location: { path: `${dir}gitlab_secret_detection_report_3_vuln.json`, start_line: 44 } });
    expect(fs[7]).toMatchObject({ location: { path: 'dojo/unittests/tools/test_gitlab_secret_detection_report_parser.py', start_line: 37 } });
  });

  it('gitleaks 8 SARIF: the result names a rule missing from the driver; auth.py lines 1-2', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/gitleaks_v8_sarif_simple.sarif');
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ rule: { id: 'test-rule' }, location: { path: 'auth.py', start_line: 1, end_line: 2, start_column: 1, end_column: 2 } });
  });

  it('Trivy SARIF: 4 results, two CVEs each on two packages, medium (security-severity 5.3)', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/trivy_alpine-310.sarif');
    expect(fs.map((f) => f.rule.cve[0]).sort()).toEqual(['CVE-2019-1549', 'CVE-2019-1549', 'CVE-2019-1551', 'CVE-2019-1551']);
    expect(new Set(fs.map((f) => f.severity))).toEqual(new Set(['medium']));
  });

  it('grype SARIF: 2 results with their CVE ids, scored by security-severity', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/grype_presenter_image.sarif');
    expect(fs.map((f) => [f.rule.id, f.rule.cve, f.severity])).toEqual([
      ['CVE-1999-0001-package-1', ['CVE-1999-0001'], 'high'],
      ['CVE-1999-0002-package-2', ['CVE-1999-0002'], 'high'],
    ]);
  });

  it('ESLint tutorial sample: one no-unused-vars at line 1, column 5, level error', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/sarif-tutorials_eslint_simple-example.sarif');
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ rule: { id: 'no-unused-vars' }, severity: 'high', location: { start_line: 1, start_column: 5 } });
  });

  it('codeql-action valid log: two runs (1 + 2 results), each named after its own driver', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/codeql-action_valid-two-runs.sarif');
    expect(fs.map((f) => f.tool)).toEqual(['lgtm.com', 'codeql-command-line-toolchain', 'codeql-command-line-toolchain']);
  });

  it('codeql-action invalid log ("results": 42) is rejected', async () => {
    await expect(parseCorpusFile('sarif', 'sarif/codeql-action_invalid-results-42.sarif')).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/runs/0/results' });
  });

  it('Semgrep 0.17 OWASP benchmark: 1768 findings, [0] in BenchmarkTest02660.java', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/dd_semgrep-0.17.0_owasp-benchmark.sarif');
    expect(fs).toHaveLength(1768);
    expect(fs[0].location.path).toBe('src/main/java/org/owasp/benchmark/testcode/BenchmarkTest02660.java');
  });

  it('a corpus log cut short is truncated_report', async () => {
    const body = readFileSync(join(CORPUS_DIR, 'sarif/dd_codeql-2.5.4_python.sarif'));
    await expect(parseReportBuffer('sarif', body.subarray(0, body.length - 100))).rejects.toMatchObject({ code: 'truncated_report' });
  });
});
