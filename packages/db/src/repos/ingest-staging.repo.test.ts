import { StagingBatcher, encodeRow } from './ingest-staging.repo';

const row = { fingerprint: 'fp', severity: 'high', title: 't', ruleId: 'r', cwe: [], cve: [], evidence: [] };

describe('ingest staging rows (COPY text format)', () => {
  it('escapes backslashes, tabs and newlines, drops NUL, and writes NULL as \\N', () => {
    const line = encodeRow(7, { ...row, title: 'a\tb\nc\\d\u0000e', description: undefined, location: { path: 'x\ty' } });
    expect(line).toBe('7\tfp\thigh\ta\\tb\\nc\\\\de\t\\N\tr\t\\N\t{}\t{}\t{"path":"x\\\\ty"}\t[]\t\\N\n');
  });

  it('quotes array elements and strips NUL escapes that jsonb refuses', () => {
    const line = encodeRow(0, { ...row, cwe: ['CWE-79', 'say "hi"'], evidence: [{ kind: 'code_span', snippet: 'a\u0000b' }] });
    const cols = line.split('\t');
    expect(cols[7]).toBe('{"CWE-79","say \\\\"hi\\\\""}');
    expect(cols[10]).toBe('[{"kind":"code_span","snippet":"ab"}]');
  });

  it('ships full batches one at a time and the rest at the end, surfacing a batch failure', async () => {
    const shipped: number[] = [];
    const batcher = new StagingBatcher(async (rows) => void shipped.push(Buffer.concat(rows).toString('utf8').split('\n').length - 1), 3);
    for (let i = 0; i < 7; i++) await batcher.write(row);
    await batcher.end();
    expect(shipped).toEqual([3, 3, 1]);

    const failing = new StagingBatcher(async () => {
      throw new Error('copy failed');
    }, 1);
    await failing.write(row);
    await expect(failing.write(row)).rejects.toThrow('copy failed');
  });
});
