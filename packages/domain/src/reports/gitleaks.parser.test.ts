import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

const fp = (f: TNormalizedFinding): string => computeFingerprint({ entityKey: 'repository:x', tool: f.tool, finding: f });

describe('gitleaks parser', () => {
  it('never keeps the secret: snippets are redacted and the identity holds only its hash', async () => {
    const leak = { RuleID: 'generic-api-key', Description: 'Generic API Key', File: 'a.py', StartLine: 3, Match: 'key = "s3cr3t-value-123"', Secret: 's3cr3t-value-123', Commit: 'abc' };
    const items = await parseReportBuffer('gitleaks', JSON.stringify([leak]));
    const text = JSON.stringify(items);
    expect(text).not.toContain('s3cr3t-value-123');
    expect(items[0].type === 'finding' && items[0].finding.evidence[0]).toMatchObject({ kind: 'code_span', snippet: 'key = "REDACTED"' });
  });

  const leaks = async (report: unknown) => (await parseReportBuffer('gitleaks', JSON.stringify(report))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));

  it('reads v7 (lower-case keys, tags as one string, no line) and v8 (PascalCase, Tags list or null, lines as strings)', async () => {
    const fs = await leaks([
      { line: 'token = ghp_abcdefghijklmnop', offender: 'ghp_abcdefghijklmnop', commit: 'c1', rule: 'Github', file: '.bashrc', tags: 'key, Github', author: 'A' },
      { RuleID: 'aws-access-token', Description: 'AWS', File: 'conf/aws.tf', StartLine: '2', EndLine: 2, StartColumn: 5, EndColumn: 24, Secret: 'AKIA0000000000000000', Match: 'k = AKIA0000000000000000', Commit: 'c2', Tags: null },
      // gitleaks 8.18+ describes its rules in sentences: the title names the rule id instead.
      { RuleID: 'jwt', Description: 'Uncovered a JSON Web Token, which may lead to unauthorized access to web applications and sensitive user data.', File: 'api/openapi.json', StartLine: 7, Secret: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', Match: '"eyJhbGciOiJIUzI1NiJ9.e30.sig"' },
    ]);
    expect(fs.map((f) => [f.rule.id, f.title, f.location.path, f.location.start_line])).toEqual([
      ['Github', 'Github secret in .bashrc', '.bashrc', undefined],
      ['aws-access-token', 'AWS secret in conf/aws.tf', 'conf/aws.tf', 2],
      ['jwt', 'jwt secret in api/openapi.json', 'api/openapi.json', 7],
    ]);
    expect(fs[2].rule.name).toMatch(/^Uncovered a JSON Web Token/);
    expect(fs[0].message).toBe('Secret matched rule Github; commit c1; A; tags: key, Github');
    expect(fs[0].evidence[0]).toMatchObject({ snippet: 'token = REDACTED' });
    expect(JSON.stringify(fs)).not.toMatch(/ghp_abcdefghijklmnop|AKIA0000000000000000|eyJhbGciOiJIUzI1NiJ9\.e30\.sig/);
  });

  it('keeps leaks of a --redact report apart by rule and position, since every secret reads "REDACTED"', async () => {
    const leak = (line: number, commit: string) => ({ RuleID: 'generic-api-key', File: 'a.py', StartLine: line, StartColumn: 1, Secret: 'REDACTED', Match: 'key = "REDACTED"', Commit: commit });
    const fs = await leaks([leak(3, 'c1'), leak(9, 'c1'), leak(3, 'c2')]);
    const ids = fs.map(fp);
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toBe(ids[2]); // one credential seen in two commits
    expect(fs[0].evidence[0]).toMatchObject({ snippet: 'key = "REDACTED"' });
  });

  it('rejects an object instead of an array', async () => {
    await expect(parseReportBuffer('gitleaks', '{"leaks": []}')).rejects.toMatchObject({ code: 'invalid_shape' });
  });
});

describeCorpus('gitleaks corpus (facts from MANIFEST.md)', () => {
  it('v7 legacy, one leak: Asymmetric Private Key in cert-key.pem, no line number', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/dd_gitleaks-v7-legacy_one.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: { id: 'Asymmetric Private Key' }, location: { path: 'cert-key.pem' }, severity: 'high' });
    expect(findings[0].location.start_line).toBeUndefined();
    expect(findings[0].message).toContain('AsymmetricPrivateKey');
  });

  it('v7 legacy, two leaks: [0] Github in .bashrc, no line number, tag Github', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/dd_gitleaks-v7-legacy_two.json');
    expect(findings).toHaveLength(2);
    expect(findings[0]).toMatchObject({ rule: { id: 'Github' }, title: 'Github secret in .bashrc', location: { path: '.bashrc' } });
    expect(findings[0].location.start_line).toBeUndefined();
    expect(findings[0].message).toContain('tags: key, Github');
  });

  it('7.5.0: 8 leaks over two commits → the 4 findings DefectDojo counts, at the asserted places', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/dd_gitleaks-7.5.0.json');
    expect(findings).toHaveLength(8);
    const distinct = new Map(findings.map((f) => [fp(f), f]));
    expect(distinct.size).toBe(4);
    const dir = 'dojo/unittests/scans/gitlab_secret_detection_report/';
    expect([...distinct.values()].map((f) => [f.rule.id, f.location.path, f.location.start_line])).toEqual([
      ['AWS Access Key', `${dir}gitlab_secret_detection_report_1_vuln.json`, 13],
      ['Asymmetric Private Key', `${dir}gitlab_secret_detection_report_3_vuln.json`, 13],
      ['AWS Access Key', `${dir}gitlab_secret_detection_report_3_vuln.json`, 44],
      ['AWS Access Key', 'dojo/unittests/tools/test_gitlab_secret_detection_report_parser.py', 37],
    ]);
    expect([...distinct.values()].map((f) => f.message?.split('tags: ')[1])).toEqual(['key, AWS', 'key, AsymmetricPrivateKey', 'key, AWS', 'key, AWS']);
  });

  it('v8: 4 entries → 3 findings (the AWS key in two commits is one); no secret is kept', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/dd_gitleaks-8_many.json');
    expect(findings).toHaveLength(4);
    expect(new Set(findings.map(fp)).size).toBe(3);
    expect(findings[0]).toMatchObject({ title: 'AWS secret in /conf/aws.tf', location: { path: '/conf/aws.tf', start_line: 2 } });
    // nb_occurences 2: the AWS key of commits 74d53286... and 9619c91b... is one finding.
    expect(fp(findings[1])).toBe(fp(findings[0]));
    expect([findings[0].message, findings[1].message]).toEqual([expect.stringContaining('commit 74d53286'), expect.stringContaining('commit 9619c91b')]);
    expect(findings[2]).toMatchObject({ title: 'RSA private key secret in conf/rsa.pk', message: expect.stringContaining('tags: tag1, tag2') });
    expect(findings[3]).toMatchObject({ rule: { id: 'generic-api-key' }, title: 'Generic API Key secret in tests/api.py', location: { path: 'tests/api.py', start_line: 21 } });
    expect(JSON.stringify(findings)).not.toContain('dfjksdjfs3294dfjlsdaf213');
  });

  it.each([['gitleaks/dd_gitleaks_null.json'], ['gitleaks/gitleaks-8_json_empty.json']])('%s: 0 findings', async (file) => {
    expect((await parseCorpusFile('gitleaks', file)).findings).toHaveLength(0);
  });

  it('v8 golden: test-rule in auth.py lines 1-2, secret redacted', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/gitleaks-8_json_simple.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: { id: 'test-rule' }, location: { path: 'auth.py', start_line: 1, end_line: 2, start_column: 1, end_column: 2 } });
    expect(findings[0].message).toBe('Secret matched rule test-rule; commit 0000000000000000; John Doe');
    expect(JSON.stringify(findings)).not.toContain('a secret');
  });
});
