import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer, parseReportStream } from './parse-report';
import { ReportParseError } from './report-parse-error';
import type { TReportRun } from './report-item';
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

  it('titles a result by its message when the rule\'s short description only names the rule (Semgrep\'s "Semgrep Finding: <id>")', async () => {
    const semgrep = {
      name: 'Semgrep OSS',
      rules: [
        { id: 'python.sqli', name: 'python.sqli', shortDescription: { text: 'Semgrep Finding: python.sqli' }, fullDescription: { text: 'Detected SQL built from $X' } },
        { id: 'js.eval', shortDescription: { text: 'js.eval' } },
        { id: 'go.tls', shortDescription: { text: 'Weak TLS configuration: MinVersion below 1.2' } },
      ],
    };
    const fs = await findings(
      log({
        tool: { driver: semgrep },
        results: [
          { ruleId: 'python.sqli', message: { text: 'Detected SQL built from user_input\nUse parameters.' }, locations: [at('a.py', 2)] },
          { ruleId: 'js.eval', message: { text: 'eval() of untrusted data' }, locations: [at('a.js', 3)] },
          { ruleId: 'go.tls', message: { text: 'config at line 4' }, locations: [at('a.go', 4)] },
          { ruleId: 'python.sqli', locations: [at('b.py', 5)] },
        ],
      }),
    );
    expect(fs.map((f) => f.title)).toEqual([
      'Detected SQL built from user_input',
      'eval() of untrusted data',
      'Weak TLS configuration: MinVersion below 1.2',
      'python.sqli',
    ]);
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

  it("reads what Snyk's rules state in words: the CVE in the full description, the severity leading the short description", async () => {
    const rule = (id: string, severityWord: string, cve: string, level: string) => ({
      id,
      shortDescription: { text: `${severityWord} severity - Prototype Pollution vulnerability in ajv` },
      fullDescription: { text: `(${cve}) ajv@6.12.2` },
      defaultConfiguration: { level },
      properties: { tags: ['security', 'CWE-400', 'npm'] },
    });
    const fs = await findings(
      log({
        tool: { driver: { name: 'Snyk Open Source', rules: [rule('SNYK-JS-AJV-584908', 'High', 'CVE-2020-15366', 'note'), rule('SNYK-JS-BL-608877', 'Medium', 'CVE-2020-8244', 'error')] } },
        results: [
          { ruleId: 'SNYK-JS-AJV-584908', level: 'note', message: { text: 'This file introduces a vulnerable ajv package with a high severity vulnerability.' }, locations: [at('package.json', 1)] },
          { ruleId: 'SNYK-JS-BL-608877', message: { text: 'bl' }, locations: [at('package.json', 1)], properties: { tags: ['direct'] } },
        ],
      }),
    );
    expect(fs.map((f) => [f.severity, f.rule.cve, f.rule.cwe, f.title])).toEqual([
      ['high', ['CVE-2020-15366'], ['CWE-400'], 'High severity - Prototype Pollution vulnerability in ajv'],
      ['medium', ['CVE-2020-8244'], ['CWE-400'], 'Medium severity - Prototype Pollution vulnerability in ajv'],
    ]);
  });

  it('titles a result by its message when the short description is an unfilled template (Fortify through the SARIF SDK)', async () => {
    const template = 'The function <Replace key="EnclosingFunction.name"/> in <Replace key="PrimaryLocation.file"/> sometimes fails to release a database resource.';
    const fs = await findings(
      log({
        tool: { driver: { name: 'HP Fortify Static Code Analyzer', rules: [{ id: 'R-UNRELEASED', shortDescription: { text: template } }, { id: 'R-ARG', shortDescription: { text: 'Call to {0}' } }] } },
        results: [
          { ruleId: 'R-UNRELEASED', message: { text: 'The function getDetails() in DBHelper.cs sometimes fails to release a database resource.' }, locations: [at('DBHelper.cs', 40)] },
          { ruleId: 'R-ARG', message: { text: 'Call to strcpy' }, locations: [at('a.c', 2)] },
        ],
      }),
    );
    expect(fs.map((f) => [f.title, f.rule.name])).toEqual([
      ['The function getDetails() in DBHelper.cs sometimes fails to release a database resource.', undefined],
      ['Call to strcpy', undefined],
    ]);
  });

  it("reads PMD's 1-5 rule priority when no level is given anywhere, and a CWE from a rule's cwe.mitre.org help page", async () => {
    const rule = (id: string, priority: number | string) => ({ id, shortDescription: { text: id }, properties: { ruleset: 'Security', priority } });
    const fs = await findings(
      log({
        tool: {
          driver: {
            name: 'PMD',
            rules: [rule('ModifyOrViewAllData', 1), rule('AvoidGlobalModifier', 2), rule('ApexDoc', 3), rule('UnusedLocalVariable', '4'), rule('FieldNamingConventions', 5), { id: 'XmlInjection', helpUri: 'https://cwe.mitre.org/data/definitions/91.html' }],
          },
        },
        results: [0, 1, 2, 3, 4, 5].map((ruleIndex) => ({ ruleIndex, message: { text: `rule ${ruleIndex}` }, locations: [at('force-app/main/A.cls', ruleIndex + 1)] })),
      }),
    );
    expect(fs.map((f) => f.severity)).toEqual(['high', 'high', 'medium', 'low', 'low', 'medium']);
    expect(fs[5].rule.cwe).toEqual(['CWE-91']);
    // Psalm links the CWE from its help text; a result with tags of its own keeps it too.
    const psalmRule = { id: 'TaintedCookie', help: { text: 'Emitted when user input is stored in a cookie.', markdown: '# TaintedCookie\n\nSee [CWE-384](https://cwe.mitre.org/data/definitions/384.html).' } };
    const psalm = await findings(
      log({ tool: { driver: { name: 'Psalm', rules: [psalmRule] } }, results: [{ ruleId: 'TaintedCookie', message: { text: 'm' } }, { ruleId: 'TaintedCookie', message: { text: 'n' }, properties: { tags: ['CWE-20'] } }] }),
    );
    expect(psalm.map((f) => f.rule.cwe)).toEqual([['CWE-384'], ['CWE-20', 'CWE-384']]);
    // A level says more than a priority.
    const [leveled] = await findings(log({ tool: { driver: { name: 'PMD', rules: [rule('X', 5)] } }, results: [{ ruleIndex: 0, level: 'error', message: { text: 'm' } }] }));
    expect(leveled.severity).toBe('high');
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

  it("makes absolute file URIs relative to the invocation's working directory, reading nothing else of the invocation", async () => {
    const notifications = Array.from({ length: 2000 }, (_, i) => ({ level: 'note', message: { text: `extracted file ${i}` } }));
    const fs = await findings(
      log({
        tool: { driver: { name: 'ShiftLeft' } },
        invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications, workingDirectory: { uri: 'file:///home/runner/work/app' } }],
        results: [
          { ruleId: 'taint-xss', message: { text: '1' }, locations: [at('file:///home/runner/work/app/dojo/forms.py', 3)] },
          { ruleId: 'taint-xss', message: { text: '2' }, locations: [at('file:///opt/lib/site.py', 9)] },
          { ruleId: 'taint-xss', message: { text: '3' }, locations: [at('dojo/views.py', 1)] },
        ],
      }),
    );
    expect(fs.map((f) => f.location.path)).toEqual(['dojo/forms.py', '/opt/lib/site.py', 'dojo/views.py']);
    // Two runners, two checkouts: one identity.
    const elsewhere = await findings(
      log({
        tool: { driver: { name: 'ShiftLeft' } },
        invocations: [{ workingDirectory: { uri: 'file:///builds/group/app/' } }],
        results: [{ ruleId: 'taint-xss', message: { text: '1' }, locations: [at('file:///builds/group/app/dojo/forms.py', 3)] }],
      }),
    );
    const identity = (f: TNormalizedFinding) => computeFingerprint({ entityKey: 'repository:x', tool: f.tool, finding: f });
    expect(identity(elsewhere[0])).toBe(identity(fs[0]));
  });

  it('reports a log with an unsuccessful invocation as incomplete, keeping its results', async () => {
    const run = (executionSuccessful: unknown) => ({ tool: { driver: { name: 'T' } }, invocations: [{ executionSuccessful: true }, { executionSuccessful }], results: [{ ruleId: 'a', message: { text: 'm' }, locations: [at('a.js', 1)] }] });
    const reasons = async (...runs: object[]): Promise<string[]> => {
      const seen: string[] = [];
      expect(await parseReportBuffer('sarif', JSON.stringify({ version: '2.1.0', runs }), { onIncomplete: (reason) => seen.push(reason) })).toHaveLength(runs.length);
      return seen;
    };
    expect(await reasons(run(true), run(null))).toEqual([]);
    expect(await reasons(run(true), run(false), run(false))).toEqual(["run 1: the tool's invocation did not complete successfully (executionSuccessful is false)"]);
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
            // CodeQL 2.2x lists a related location twice, with its message id and bare: one span.
            relatedLocations: [{ id: 1, ...at('a.js', 10), message: { text: 'user-provided value' } }, at('a.js', 10)],
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

describe('SARIF parser: what other producers and versions write', () => {
  it('reads levels, ranks and scores in the spellings tools use', async () => {
    const fs = await findings(
      log({
        tool: { driver: { name: 'T', rules: [{ id: 'ranked', defaultConfiguration: { rank: '85' } }, { id: 'levelled', defaultConfiguration: { level: 'Error' } }] } },
        results: [
          { ruleId: 'ranked', message: { text: 'rule rank as a string' } },
          { ruleId: 'levelled', message: { text: 'capitalised rule level' } },
          { ruleId: 'x', level: 'NOTE', message: { text: 'upper-case level' } },
          { ruleId: 'x', properties: { 'security-severity': 'High' }, message: { text: 'a word as security-severity' } },
          { ruleId: 'x', properties: { 'security-severity': 9.8 }, message: { text: 'a number as security-severity' } },
          { ruleId: 'x', rank: 10, message: { text: 'a low result rank' } },
          { ruleId: 'x', level: 'bogus', message: { text: 'an unknown level falls back to warning' } },
        ],
      }),
    );
    expect(fs.map((f) => f.severity)).toEqual(['high', 'high', 'low', 'high', 'critical', 'low', 'medium']);
  });

  it('reads CWE ids from tags, properties.cwe (text or number) and taxa referenced by name, index or guid', async () => {
    const fs = await findings(
      log({
        tool: { driver: { name: 'T', rules: [{ id: 'tagged', properties: { tags: ['security', 'external/cwe/cwe-079', 'CWE-352: CSRF'] } }, { id: 'numbered', properties: { cwe: [22, '78'] } }] } },
        taxonomies: [{ name: 'CWE', guid: 'A0A0A0A0-0000-0000-0000-000000000001', taxa: [{ id: '611' }] }],
        results: [
          { ruleId: 'tagged', message: { text: '1' } },
          { ruleId: 'numbered', message: { text: '2' } },
          { ruleId: 'x', properties: { cwe: 'CWE-434' }, message: { text: '3' } },
          { ruleId: 'x', taxa: [{ id: '611', toolComponent: { guid: 'a0a0a0a0-0000-0000-0000-000000000001' } }], message: { text: '4' } },
          { ruleId: 'x', taxa: [{ id: '918', toolComponent: { name: 'CWE' } }], message: { text: '5' } },
          { ruleId: 'x', taxa: [{ id: '42', toolComponent: { name: 'OWASP' } }], message: { text: 'not a CWE taxonomy: 42 is no CWE id' } },
        ],
      }),
    );
    expect(fs.map((f) => f.rule.cwe)).toEqual([['CWE-79', 'CWE-352'], ['CWE-22', 'CWE-78'], ['CWE-434'], ['CWE-611'], ['CWE-918'], []]);
  });

  it('keeps each run with its own rules, tool and base URIs; resolves chained originalUriBaseIds', async () => {
    const body = {
      version: '2.1.0',
      runs: [
        { tool: { driver: { name: 'First', rules: [{ id: 'F1', defaultConfiguration: { level: 'note' } }] } }, results: [{ ruleIndex: 0, message: { text: 'a' }, locations: [at('a.c', 1)] }] },
        {
          tool: { driver: { name: 'Second', rules: [{ id: 'S1', defaultConfiguration: { level: 'error' } }] } },
          originalUriBaseIds: { ROOT: { uri: 'file:///build/' }, SRC: { uri: 'src/', uriBaseId: 'ROOT' } },
          results: [
            { ruleIndex: 0, message: { text: 'b' }, locations: [at('file:///build/src/lib/b.c', 2)] },
            { ruleIndex: 0, message: { text: 'c' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'lib/c.c', uriBaseId: 'SRC' }, region: { startLine: '7', startColumn: '3' } } }] },
          ],
        },
        { tool: { driver: { name: 'Third' } }, results: null },
      ],
    };
    const fs = await findings(body);
    expect(fs.map((f) => [f.tool, f.rule.id, f.severity, f.location.path, f.location.start_line])).toEqual([
      ['first', 'F1', 'low', 'a.c', 1],
      ['second', 'S1', 'high', 'lib/b.c', 2],
      ['second', 'S1', 'high', 'lib/c.c', 7],
    ]);
    expect(fs[2].location.start_column).toBe(3);
  });

  it('reports each run, empty ones included, to onRun', async () => {
    const runs: TReportRun[] = [];
    const body = { version: '2.1.0', runs: [{ tool: { driver: { name: 'A', version: '1.0' } }, results: [{ ruleId: 'r', message: { text: 'm' } }, { ruleId: 'r', kind: 'pass', message: { text: 'ok' } }] }, { tool: { driver: {} } }] };
    await parseReportBuffer('sarif', JSON.stringify(body), { onRun: (r) => runs.push(r) });
    expect(runs).toEqual([
      { index: 0, tool: { name: 'A', version: '1.0' }, results: 2, findings: 1 },
      { index: 1, results: 0, findings: 0 },
    ]);
  });

  it('tolerates nulls and missing optional parts: no rules, null locations, null message, null region', async () => {
    const fs = await findings(
      log({
        tool: { driver: { name: 'T', rules: null }, extensions: null },
        artifacts: null,
        results: [
          { ruleId: 'a', message: null, locations: null, relatedLocations: null, codeFlows: null, suppressions: null, fingerprints: null, partialFingerprints: null },
          { ruleId: 'b', message: { text: 'm' }, locations: [null, { physicalLocation: { artifactLocation: { uri: 'x.js' }, region: null } }] },
          { rule: { id: 'c' }, message: { markdown: '**bold** text' }, locations: [{ physicalLocation: null, logicalLocations: [{ index: 0 }] }] },
        ],
      }),
    );
    expect(fs.map((f) => [f.rule.id, f.title, f.location.path])).toEqual([
      ['a', 'a', undefined],
      ['b', 'm', 'x.js'],
      ['c', '**bold** text', undefined],
    ]);
  });

  it('accepts the 2.1.0 release-candidate version strings (2.1.0-rtm.N) and their suppression "state"', async () => {
    const body = { version: '2.1.0-rtm.5', runs: [{ tool: { driver: { name: 'T' } }, results: [{ ruleId: 'a', message: { text: 'm' }, suppressions: [{ kind: 'inSource', state: 'accepted' }] }] }] };
    const [f] = await findings(body);
    expect(f.suppression).toMatchObject({ kind: 'in_source', status: 'accepted' });
  });

  it('ignores the fingerprint of a logged-out Semgrep run ("requires login"), the same on every result', async () => {
    const results = [['stupid.py', 3], ['stupid.py', 9], ['other.py', 3]].map(([uri, line]) => ({
      ruleId: 'rules.eqeq-is-bad',
      message: { text: 'useless comparison' },
      locations: [at(uri as string, line as number)],
      fingerprints: { 'matchBasedId/v1': 'requires login' },
    }));
    const fs = await findings(log({ tool: { driver: { name: 'Semgrep OSS' } }, results }));
    expect(fs.map((f) => f.fingerprint_hint)).toEqual([undefined, undefined, undefined]);
    expect(new Set(fs.map((f) => computeFingerprint({ entityKey: 'repository:r', tool: 'semgrep', finding: f }))).size).toBe(3);
  });

  it('keeps results apart whose fingerprint repeats at another place (a hash of the line text), and merges exact repeats', async () => {
    // flawfinder: partialFingerprints["contextHash/v1"] hashes the line's text, so the same call
    // on two lines of a file has the same one; Snyk Code's `fingerprints` repeat the same way.
    const flawfinder = (line: number, uri = 'src/copy.c') => ({
      ruleId: 'FF1001',
      message: { text: 'strcpy: does not check for buffer overflows' },
      locations: [at(uri, line, { region: { startLine: line, startColumn: 3, endColumn: 20 } })],
      partialFingerprints: { 'contextHash/v1': 'd2c1e0f5a3' },
    });
    const snyk = (uri: string) => ({ ruleId: 'javascript/Sqli', message: { text: 'SQL injection' }, locations: [at(uri, 7)], fingerprints: { '0': 'aa11', '1': 'bb22' } });
    const results = [flawfinder(10), flawfinder(42), flawfinder(10), flawfinder(10, 'src/other.c'), snyk('a.js'), snyk('b.js'), snyk('a.js')];
    const report = log({ tool: { driver: { name: 'flawfinder' } }, results });
    const fps = async () => (await findings(report)).map((f) => computeFingerprint({ entityKey: 'repository:r', tool: 'sast', finding: f }));
    const first = await fps();
    expect(new Set(first).size).toBe(5);
    expect(first[2]).toBe(first[0]); // line 10 again: the same result
    expect(first[6]).toBe(first[4]); // a.js again
    expect(first[1]).not.toBe(first[0]);
    expect(first[5]).not.toBe(first[4]);
    // The same report again: the same identities (a re-scan finds the same findings).
    expect(await fps()).toEqual(first);
  });

  it('takes GitHub line hashes as they are: their ":n" suffix already tells repeated lines apart', async () => {
    const result = (line: number, hash: string) => ({ ruleId: 'js/xss', message: { text: 'xss' }, locations: [at('a.js', line)], partialFingerprints: { primaryLocationLineHash: hash } });
    const fs = await findings(log({ tool: { driver: { name: 'CodeQL' } }, results: [result(3, 'abc:1'), result(9, 'abc:1'), result(12, 'abc:2')] }));
    expect(fs.map((f) => f.fingerprint_hint)).toEqual(['sarif-partial:a.js\nprimaryLocationLineHash=abc:1', 'sarif-partial:a.js\nprimaryLocationLineHash=abc:1', 'sarif-partial:a.js\nprimaryLocationLineHash=abc:2']);
  });

  it("reads Bandit's severity from properties.issue_severity (its SARIF has no level)", async () => {
    const result = (sev: string) => ({ ruleId: 'B602', message: { text: 'subprocess call with shell=True' }, locations: [at('app.py', 4)], properties: { issue_severity: sev, issue_confidence: 'HIGH' } });
    const fs = await findings(log({ tool: { driver: { name: 'Bandit' } }, results: [result('HIGH'), result('LOW')] }));
    expect(fs.map((f) => f.severity)).toEqual(['high', 'low']);
  });

  it('never keeps the snippet of a secret scanner, which holds the secret itself', async () => {
    const leak = { ruleId: 'aws-access-key', message: { text: 'secret found' }, locations: [at('a.env', 1, { region: { startLine: 1, snippet: { text: 'AKIA0123456789ABCDEF' } } })] };
    const fs = await findings(log({ tool: { driver: { name: 'gitleaks' } }, results: [leak] }));
    expect(JSON.stringify(fs)).not.toContain('AKIA0123456789ABCDEF');
    expect(fs[0].evidence[0]).toEqual({ kind: 'code_span', region: { path: 'a.env', start_line: 1, end_line: 1 } });
    const other = await findings(log({ tool: { driver: { name: 'eslint' } }, results: [leak] }));
    expect(other[0].evidence[0]).toMatchObject({ snippet: 'AKIA0123456789ABCDEF' });
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

  const runsOf = async (file: string): Promise<{ runs: TReportRun[]; findings: number }> => {
    const runs: TReportRun[] = [];
    const { findings: fs } = await parseCorpusFile('sarif', file, { onRun: (r) => runs.push(r) });
    return { runs, findings: fs.length };
  };

  it.each([
    ['sarif/dd_spec-appendix-k1-minimal-empty.sarif', 1],
    ['sarif/dd_spec-appendix-k1-two-runs-empty.sarif', 2],
    ['sarif/dd_no-runs.sarif', 0],
    ['sarif/codeql-action_tool-names-5-runs.sarif', 5],
  ])('%s: valid and empty → 0 findings over %i run(s)', async (file, runCount) => {
    const { runs, findings: n } = await runsOf(file);
    expect(n).toBe(0);
    expect(runs).toHaveLength(runCount);
  });

  it('spec appendix K.1 doubled: two runs, "CodeScanner" then "OtherScanner", 0 findings each', async () => {
    const { runs } = await runsOf('sarif/dd_spec-appendix-k1-two-runs-empty.sarif');
    expect(runs.map((r) => [r.tool?.name, r.findings])).toEqual([
      ['CodeScanner', 0],
      ['OtherScanner', 0],
    ]);
  });

  it('codeql-action tool names: the distinct named tools of 5 runs are exactly CodeQL command-line toolchain and ESLint ("" and null dropped)', async () => {
    const { runs } = await runsOf('sarif/codeql-action_tool-names-5-runs.sarif');
    expect([...new Set(runs.flatMap((r) => (r.tool === undefined ? [] : [r.tool.name])))]).toEqual(['CodeQL command-line toolchain', 'ESLint']);
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
    expect(JSON.stringify(fs)).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('gitleaks 8 SARIF: the result names a rule missing from the driver; auth.py lines 1-2, cols 1-2, commit 0000000000000000; the secret is not kept', async () => {
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/gitleaks_v8_sarif_simple.sarif');
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ rule: { id: 'test-rule' }, location: { path: 'auth.py', start_line: 1, end_line: 2, start_column: 1, end_column: 2 } });
    expect(fs[0].fingerprint_hint).toContain('commitSha=0000000000000000');
    expect(fs[0].message).toContain('commit 0000000000000000');
    // The golden's snippet is the secret ("a secret"); tags tag1-3 have no place in the model.
    expect(JSON.stringify(fs)).not.toContain('a secret');
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

  it('codeql-action valid log: schema-valid, so accepted; two runs (1 + 2 results), each named after its own driver', async () => {
    const runs: TReportRun[] = [];
    const { findings: fs } = await parseCorpusFile('sarif', 'sarif/codeql-action_valid-two-runs.sarif', { onRun: (r) => runs.push(r) });
    expect(fs.map((f) => f.tool)).toEqual(['lgtm.com', 'codeql-command-line-toolchain', 'codeql-command-line-toolchain']);
    expect(runs.map((r) => [r.tool?.name, r.results])).toEqual([
      ['LGTM.com', 1],
      ['CodeQL command-line toolchain', 2],
    ]);
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
