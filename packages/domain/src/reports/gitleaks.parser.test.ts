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

  it('v7 legacy, two leaks: [0] Github in .bashrc', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/dd_gitleaks-v7-legacy_two.json');
    expect(findings).toHaveLength(2);
    expect(findings[0]).toMatchObject({ rule: { id: 'Github' }, location: { path: '.bashrc' } });
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
  });

  it('v8: 4 entries → 3 findings (the AWS key in two commits is one); no secret is kept', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/dd_gitleaks-8_many.json');
    expect(findings).toHaveLength(4);
    expect(new Set(findings.map(fp)).size).toBe(3);
    expect(findings[0]).toMatchObject({ location: { path: '/conf/aws.tf', start_line: 2 } });
    expect(findings[3]).toMatchObject({ rule: { id: 'generic-api-key' }, location: { path: 'tests/api.py' } });
    expect(JSON.stringify(findings)).not.toContain('dfjksdjfs3294dfjlsdaf213');
  });

  it.each([['gitleaks/dd_gitleaks_null.json'], ['gitleaks/gitleaks-8_json_empty.json']])('%s: 0 findings', async (file) => {
    expect((await parseCorpusFile('gitleaks', file)).findings).toHaveLength(0);
  });

  it('v8 golden: test-rule in auth.py lines 1-2, secret redacted', async () => {
    const { findings } = await parseCorpusFile('gitleaks', 'gitleaks/gitleaks-8_json_simple.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: { id: 'test-rule' }, location: { path: 'auth.py', start_line: 1, end_line: 2 } });
    expect(JSON.stringify(findings)).not.toContain('a secret');
  });
});
