import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

const fp = (f: TNormalizedFinding): string => computeFingerprint({ entityKey: 'repository:x', tool: f.tool, finding: f });

describe('Semgrep parser', () => {
  it('reads taint traces, nosemgrep suppressions and both severity vocabularies', async () => {
    const loc = (line: number): object => ({ path: 'a.py', start: { line, col: 1 }, end: { line, col: 9 } });
    const body = {
      results: [
        {
          check_id: 'python.taint',
          path: 'a.py',
          start: { line: 9, col: 2 },
          end: { line: 9, col: 20 },
          extra: {
            message: 'tainted',
            severity: 'ERROR',
            metadata: { cwe: ['CWE-89: SQL Injection'] },
            is_ignored: true,
            dataflow_trace: { taint_source: ['CliLoc', [loc(3), 'request.args']], intermediate_vars: [{ location: loc(5), content: 'q' }], taint_sink: ['CliLoc', [loc(9), 'execute(q)']] },
          },
        },
        { check_id: 'x.y', path: 'b.py', start: { line: 1, col: 1 }, end: { line: 1, col: 2 }, extra: { message: 'm', severity: 'CRITICAL' } },
      ],
      errors: [{ message: 'rule error' }],
    };
    const fs = (await parseReportBuffer('semgrep', JSON.stringify(body))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => f.severity)).toEqual(['high', 'critical']);
    expect(fs[0].rule.cwe).toEqual(['CWE-89']);
    expect(fs[0].suppression).toEqual({ kind: 'in_source', status: 'accepted', justification: 'nosemgrep' });
    const flow = fs[0].evidence.find((e) => e.kind === 'dataflow_path');
    expect(flow?.kind === 'dataflow_path' && flow.steps.map((s) => [s.region.start_line, s.message])).toEqual([
      [3, 'source: request.args'],
      [5, 'through: q'],
      [9, 'sink: execute(q)'],
    ]);
  });

  it('reads metadata.cwe as a string, a list or numbers; extra.fix as the remediation; tolerates nulls', async () => {
    const r = (extra: unknown, over: object = {}) => ({ check_id: 'r', path: 'a.py', start: { line: 1, col: 1 }, end: { line: 1, col: 5 }, extra, ...over });
    const body = {
      version: '1.50.0',
      results: [
        r({ message: 'm1', severity: 'WARNING', metadata: { cwe: 'CWE-22: Path Traversal', cve: 'CVE-2023-12345' }, fix: 'safe_join(a, b)' }),
        r({ message: 'm2', severity: 'INFO', metadata: { cwe: ['CWE-79: XSS', 'CWE-80: Basic XSS'] } }),
        r({ message: 'm3', severity: 'LOW', metadata: { cwe: [89] } }),
        r(null, { start: null, end: null }),
        r({ message: 'm5', metadata: null, lines: null, fingerprint: null, severity: null }),
      ],
      errors: null,
      paths: { scanned: ['a.py'] },
    };
    const fs = (await parseReportBuffer('semgrep', JSON.stringify(body))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => [f.rule.cwe, f.severity, f.location.start_line])).toEqual([
      [['CWE-22'], 'medium', 1],
      [['CWE-79', 'CWE-80'], 'low', 1],
      [['CWE-89'], 'low', 1],
      [[], 'medium', undefined],
      [[], 'medium', 1],
    ]);
    expect(fs[0]).toMatchObject({ rule: { cve: ['CVE-2023-12345'] }, title: 'm1', message: 'm1\n\nSuggested fix:\nsafe_join(a, b)', source_tool: { name: 'semgrep', version: '1.50.0' } });
    expect(fs[3].title).toBe('r');
  });

  it('reports a run with an error at level "error" as incomplete, once, and not one with warnings only', async () => {
    const reasons = async (errors: unknown[]): Promise<string[]> => {
      const seen: string[] = [];
      const body = { errors, results: [{ check_id: 'r', path: 'a.py', start: { line: 1, col: 1 }, end: { line: 1, col: 2 }, extra: { message: 'm', severity: 'INFO' } }], version: '1.90.0' };
      expect(await parseReportBuffer('semgrep', JSON.stringify(body), { onIncomplete: (reason) => seen.push(reason) })).toHaveLength(1);
      return seen;
    };
    expect(await reasons([{ code: 3, level: 'warn', type: 'Syntax error', message: 'Syntax error at line b.py:3', path: 'b.py' }, { level: 'warn', type: ['PartialParsing', [{ path: 'c.py' }]] }])).toEqual([]);
    expect(await reasons([])).toEqual([]);
    expect(
      await reasons([
        { code: 3, level: 'warn', type: 'Timeout', message: 'Timeout when running r on d.py' },
        { code: 7, level: 'error', type: ['InvalidRuleSchemaError'], message: 'Invalid rule schema\nmore detail', spans: [{ file: 'rules.yml' }] },
        { code: 2, level: 'error', type: 'UnknownLanguageError', message: 'invalid language' },
      ]),
    ).toEqual(['Semgrep reported an error (InvalidRuleSchemaError: Invalid rule schema)']);
  });

  it('rejects a report without results', async () => {
    await expect(parseReportBuffer('semgrep', '{"errors": []}')).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/results' });
  });
});

describeCorpus('Semgrep corpus (facts from MANIFEST.md)', () => {
  it('empty: 0 findings', async () => {
    expect((await parseCorpusFile('semgrep', 'semgrep/dd_semgrep_empty.json')).findings).toHaveLength(0);
  });

  it('one finding: medium, BenchmarkTest02194.java:64, CWE-696, cbc-padding-oracle', async () => {
    const { findings } = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep_one-finding_java.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'medium',
      rule: { id: 'java.lang.security.audit.cbc-padding-oracle.cbc-padding-oracle', cwe: ['CWE-696'] },
      location: { path: 'src/main/java/org/owasp/benchmark/testcode/BenchmarkTest02194.java', start_line: 64 },
    });
    // DefectDojo's mitigation is the rule's autofix.
    expect(findings[0].message).toContain('Suggested fix:\njavax crypto Cipher.getInstance("AES/GCM/NoPadding");');
  });

  it('three findings: [0] medium BenchmarkTest02194.java, [2] low BenchmarkTest01150.java', async () => {
    const { findings } = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep_three-findings_java.json');
    expect(findings).toHaveLength(3);
    expect(findings.every((f) => f.rule.id === 'java.lang.security.audit.cbc-padding-oracle.cbc-padding-oracle')).toBe(true);
    expect(findings[0]).toMatchObject({ severity: 'medium', location: { path: expect.stringContaining('BenchmarkTest02194.java') } });
    expect(findings[2]).toMatchObject({ severity: 'low', location: { path: expect.stringContaining('BenchmarkTest01150.java') } });
  });

  it('repeated finding: two identical results at BenchmarkTest01150.java:66 are one finding', async () => {
    const { findings } = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep_repeated-finding.json');
    expect(findings).toHaveLength(2); // nb_occurences 2
    expect(findings[0].location.path).toMatch(/BenchmarkTest01150\.java$/);
    expect(findings.every((f) => f.location.start_line === 66 && f.severity === 'medium')).toBe(true);
    expect(new Set(findings.map(fp)).size).toBe(1);
  });

  it('48 findings: [0] high tasks.py tempfile-without-flush; the rules DefectDojo names are there', async () => {
    const { findings } = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep_48-findings_python.json');
    expect(findings).toHaveLength(48);
    expect(findings[0]).toMatchObject({ severity: 'high', rule: { id: 'python.lang.correctness.tempfile.flush.tempfile-without-flush' } });
    expect(findings[0].location.path).toMatch(/tasks\.py$/);
    const has = (rule: string, path: RegExp, severity: string): boolean => findings.some((f) => f.rule.id.endsWith(rule) && path.test(f.location.path ?? '') && f.severity === severity);
    expect(has('useless-if-conditional', /utils\.py$/, 'medium')).toBe(true);
    expect(has('insecure-hash-algorithm-md5', /tools\/sslyze\/parser_xml\.py$/, 'medium')).toBe(true);
    expect(has('unquoted-csv-writer', /management\/commands\/csv_findings_export\.py$/, 'high')).toBe(true);
  });

  it('1.84.1 LOW/MEDIUM/HIGH vocabulary: 3 low findings with distinct Semgrep fingerprints', async () => {
    const { findings } = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep-1.84.1_high-medium-low.json');
    expect(findings.map((f) => f.severity)).toEqual(['low', 'low', 'low']);
    expect(new Set(findings.map((f) => f.fingerprint_hint)).size).toBe(3);
  });

  it('"requires login" fingerprints are not identities: brute.py:31 and function.go:37', async () => {
    const { findings } = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep-1.100.0_fingerprint-requires-login.json');
    expect(findings.map((f) => [f.fingerprint_hint, f.location.path, f.location.start_line])).toEqual([
      [undefined, 'sample/brute.py', 31],
      [undefined, 'sample/function.go', 37],
    ]);
    expect(JSON.stringify(findings)).not.toContain('requires login');
  });

  it('1.30.0 line 26 vs line 27: same number of findings, pairwise-identical identities (code moved by a line)', async () => {
    const a = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep-1.30.0_line26.json');
    const b = await parseCorpusFile('semgrep', 'semgrep/dd_semgrep-1.30.0_line27.json');
    expect(a.findings).toHaveLength(5);
    expect(b.findings.map(fp)).toEqual(a.findings.map(fp));
  });
});
