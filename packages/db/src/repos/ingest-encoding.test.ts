import { CopyBinaryRows } from './copy-binary-rows';
import { EVENT_GROUP, FirstReportEncoder, StagingBatcher } from './ingest-encoding';

const row = { fingerprint: 'fp', severity: 'high', title: 't', ruleId: 'r', cwe: [], cve: [], evidence: [] };

// Staging tuples themselves are checked against PostgreSQL (copy-binary-rows.int.test.ts and the
// ingest API tests); this is the batching.
describe('StagingBatcher', () => {
  // A batch's stream: 19 header bytes, then 2 + 8 bytes per (seq-only) tuple, then a 2-byte trailer.
  const tuples = (chunks: Buffer[]) => (Buffer.concat(chunks).length - 19 - 2) / 10;
  const seqOnly = { encode: (out: CopyBinaryRows, seq: number) => void out.row(1).int4(seq), cut: () => undefined };

  it('ships full batches one at a time and the rest at the end, surfacing a batch failure', async () => {
    const shipped: number[] = [];
    const batcher = new StagingBatcher(async (rows) => void shipped.push(tuples(rows)), 3, seqOnly);
    for (let i = 0; i < 7; i++) await batcher.write(row);
    await batcher.end();
    expect(shipped).toEqual([3, 3, 1]);

    const failing = new StagingBatcher(async () => {
      throw new Error('copy failed');
    }, 1);
    await failing.write(row);
    await expect(failing.write(row)).rejects.toThrow('copy failed');
  });

  it('drops what was not shipped when abandoned', async () => {
    const shipped: number[] = [];
    const batcher = new StagingBatcher(async (rows) => void shipped.push(tuples(rows)), 3, seqOnly);
    for (let i = 0; i < 4; i++) await batcher.write(row);
    await batcher.abandon();
    expect(shipped).toEqual([3]);
  });
});

describe('FirstReportEncoder', () => {
  const scope = {
    orgId: '0190a6e0-0000-7000-8000-000000000001',
    scanId: '0190a6e0-0000-7000-8000-000000000002',
    tool: 'semgrep',
    entity: { type: 'repository', id: 'https://git.example.test/a/b', name: 'a/b' },
    at: new Date('2026-11-24T10:00:00Z'),
  };

  it('cuts the events of each batch into groups of JSON text, titles escaped, repeats and NULs left out', () => {
    const encoder = new FirstReportEncoder(scope);
    const out = new CopyBinaryRows();
    const title = 'He said "no" \\ then\nleft \u2028 ✓ \ud83d\ude00';
    for (let i = 0; i < EVENT_GROUP + 3; i++) encoder.encode(out, i, { ...row, fingerprint: `fp${i}`, title: i === 1 ? title : `t${i}` });
    encoder.encode(out, 0, { ...row, fingerprint: 'fp0' }); // a repeat: no tuple, no event
    encoder.encode(out, 0, { ...row, fingerprint: 'fp-suppressed', title: 'a\u0000b', suppression: { kind: 'inSource' } });
    const groups = encoder.cut().map((text) => JSON.parse(text));
    expect(groups.map((group) => group.length)).toEqual([EVENT_GROUP, 4]);
    expect(groups[0][0]).toEqual({ finding_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/), severity: 'high', title: 't0', status: 'open', previous_status: null });
    expect(groups[0][1].title).toBe(title);
    expect(groups[1][3]).toMatchObject({ title: 'ab', status: 'dismissed' });
    expect(encoder.cut()).toEqual([]);
    expect(encoder.tally()).toEqual({ staged: EVENT_GROUP + 5, distinct: EVENT_GROUP + 4, suppressed: 1 });
  });
});
