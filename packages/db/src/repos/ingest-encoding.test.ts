import type { CopyBinaryRows } from './copy-binary-rows';
import { StagingBatcher } from './ingest-encoding';

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
