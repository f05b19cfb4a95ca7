import { parseReportBuffer } from './parse-report';

const report = (over: object = {}): string =>
  JSON.stringify({
    format: 'palisade',
    version: 1,
    tool: { name: 'secrets', version: '0.1.0' },
    results: [
      {
        rule_id: 'aws-access-key',
        severity: 'critical',
        title: 'AWS access key',
        cwe: ['CWE-798'],
        location: { path: 'config/app.env', start_line: 3 },
        evidence: [{ kind: 'code_span', region: { path: 'config/app.env', start_line: 3 }, snippet: 'AWS_KEY=AKIA****' }],
        fingerprint: 'secrets:abc',
      },
      { rule_id: 'k8s-privileged', severity: 'high', title: 'Privileged container' },
    ],
    ...over,
  });

describe('Palisade report parser', () => {
  it('maps results one to one, keeping evidence and the vouched-for fingerprint', async () => {
    const items = await parseReportBuffer('palisade', report());
    const fs = items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs[0]).toEqual({
      tool: 'secrets',
      source_tool: { name: 'secrets', version: '0.1.0' },
      rule: { id: 'aws-access-key', cwe: ['CWE-798'], cve: [] },
      severity: 'critical',
      title: 'AWS access key',
      location: { path: 'config/app.env', start_line: 3 },
      evidence: [{ kind: 'code_span', region: { path: 'config/app.env', start_line: 3 }, snippet: 'AWS_KEY=AKIA****' }],
      fingerprint_hint: 'palisade:secrets:abc',
    });
    expect(fs[1]).toMatchObject({ rule: { id: 'k8s-privileged' }, evidence: [], location: {}, occurrence: 0 });
  });

  it('is strict: unknown fields, invalid results, wrong format or version are rejected with a pointer', async () => {
    await expect(parseReportBuffer('palisade', report({ extra: 1 }))).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/extra' });
    await expect(parseReportBuffer('palisade', report({ results: [{ rule_id: 'x', severity: 'severe', title: 't' }] }))).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/results/0/severity' });
    await expect(parseReportBuffer('palisade', report({ results: [{ rule_id: 'x', severity: 'low', title: 't', surprise: true }] }))).rejects.toMatchObject({ pointer: '/results/0' });
    await expect(parseReportBuffer('palisade', report({ format: 'sarif' }))).rejects.toMatchObject({ pointer: '/format' });
    await expect(parseReportBuffer('palisade', report({ version: 2 }))).rejects.toMatchObject({ code: 'unsupported_version' });
    await expect(parseReportBuffer('palisade', '{"format":"palisade","version":1,"results":[]}')).rejects.toMatchObject({ pointer: '/tool' });
  });
});
