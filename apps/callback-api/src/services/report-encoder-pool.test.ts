import { Readable } from 'node:stream';
import { EVENT_GROUP } from '@palisade/db';
import { ReportParseError } from '@palisade/domain/reports/report-parse-error';
import { ReportEncoderPool } from './report-encoder-pool';
import type { TEncodeJob } from './report-encoding';

// The pool with its real worker threads (loaded from source through tsx, as the planes are in
// tests). What the tuples hold is checked against PostgreSQL by the ingest API tests; this is
// the hand-over: batches, events and tally, bad reports, failures on either side, concurrency.
const scope = {
  orgId: '0190f0a0-0000-7000-8000-000000000001',
  scanId: '0190f0a0-0000-7000-8000-000000000002',
  tool: 'ext',
  entity: { type: 'project_version', id: 'repo@main', name: 'repo' },
  at: new Date('2026-11-24T00:00:00Z'),
};
const firstReport: TEncodeJob = { format: 'sarif', tool: 'ext', entityKey: 'project_version:repo@main', encoding: { kind: 'first-report', scope } };

function sarif(results: number, { repeatEvery = 0 } = {}): Buffer {
  const items = Array.from({ length: results }, (_, i) => {
    const n = repeatEvery > 0 && i % repeatEvery === repeatEvery - 1 ? i - 1 : i;
    return {
      ruleId: `rule-${n % 7}`,
      level: 'error',
      message: { text: `finding ${n}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: `src/f${n}.js` }, region: { startLine: n + 1 } } }],
    };
  });
  return Buffer.from(JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Ext' } }, results: items }] }));
}

/** The body in chunks of `size` bytes, as a socket would deliver it. */
const body = (bytes: Buffer, size = 16 * 1024) => Readable.from((function* () {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
})());

/** Tuples in a COPY (FORMAT binary) stream: 19 header bytes, then per tuple a field count, each field's length and bytes. */
function countTuples(chunks: Buffer[]): number {
  const stream = Buffer.concat(chunks);
  let at = 19;
  let tuples = 0;
  for (;;) {
    const fields = stream.readInt16BE(at);
    at += 2;
    if (fields === -1) return tuples;
    tuples++;
    for (let f = 0; f < fields; f++) {
      const length = stream.readInt32BE(at);
      at += 4 + Math.max(0, length);
    }
  }
}

describe('ReportEncoderPool', () => {
  let pool: ReportEncoderPool;
  beforeEach(() => {
    pool = new ReportEncoderPool(1);
  });
  afterEach(() => pool.close());

  it('encodes a report on a worker into batches of tuples with their events, one ship at a time, and tallies it', async () => {
    const shipped: Array<{ tuples: number; groups: Array<Array<Record<string, unknown>>> }> = [];
    let shipping = 0;
    let overlapped = false;
    const summary = await pool.encode(firstReport, body(sarif(11_000, { repeatEvery: 10 })), async (rows, events) => {
      overlapped ||= shipping > 0;
      shipping++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      shipped.push({ tuples: countTuples(rows), groups: (events ?? []).map((group) => JSON.parse(group)) });
      shipping--;
    });
    // Every tenth result repeats the one before it: 1,100 duplicates, dropped, first kept.
    expect(summary).toEqual({ results: 11_000, staged: 11_000, distinct: 9_900, suppressed: 0 });
    expect(overlapped).toBe(false);
    expect(shipped.map((batch) => batch.tuples)).toEqual([4_500, 4_500, 900]);
    // Each batch's events, as the JSON text of outbox rows of EVENT_GROUP events at most.
    expect(shipped.map((batch) => batch.groups.map((group) => group.length))).toEqual([
      Array(9).fill(EVENT_GROUP),
      Array(9).fill(EVENT_GROUP),
      [EVENT_GROUP, 400],
    ]);
    const events = shipped.flatMap((batch) => batch.groups.flat());
    expect(events).toHaveLength(9_900);
    expect(new Set(events.map((event) => event.finding_id)).size).toBe(9_900);
    expect(events[0]).toEqual({ finding_id: expect.stringMatching(/^[0-9a-f-]{36}$/), severity: 'high', title: expect.any(String), status: 'open', previous_status: null });
  });

  it('gives a bad report back as a ReportParseError and keeps the worker for the next report', async () => {
    // Valid up to the last result, then a stray character where the next result would be.
    const text = sarif(3_000).toString();
    const bad = Buffer.from(`${text.slice(0, text.lastIndexOf(']}]}'))},@]}]}`);
    const error = await pool.encode(firstReport, body(bad), async () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportParseError);
    expect((error as ReportParseError).code).toBe('invalid_json');
    await expect(pool.encode({ ...firstReport, encoding: { kind: 'staging' } }, body(sarif(12)), async () => undefined)).resolves.toEqual({
      results: 12,
      staged: 12,
      distinct: 12,
      suppressed: 0,
    });
  });

  it('fails with what shipping threw, replaces that worker, and encodes the next report', async () => {
    await expect(
      pool.encode(firstReport, body(sarif(5_000)), async () => {
        throw new Error('COPY failed');
      }),
    ).rejects.toThrow('COPY failed');
    await expect(pool.encode(firstReport, body(sarif(10)), async () => undefined)).resolves.toMatchObject({ results: 10, distinct: 10 });
  });

  it('fails with what shipping the last batch threw, though the worker had finished before it', async () => {
    // The worker reports done as soon as its last batch is posted; the database answers later.
    let batches = 0;
    const outcome = pool.encode(firstReport, body(sarif(10)), async () => {
      batches++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('value too long for type character varying(1000)');
    });
    await expect(outcome).rejects.toThrow('value too long');
    expect(batches).toBe(1);
  });

  it('fails with what the body threw (a size cap, a client gone) and stops reading it', async () => {
    const bytes = sarif(5_000);
    const failing = new Readable({ read() {} });
    failing.push(bytes.subarray(0, 100_000));
    setTimeout(() => failing.destroy(new Error('client gone')), 20);
    await expect(pool.encode(firstReport, failing, async () => undefined)).rejects.toThrow('client gone');
    await expect(pool.encode(firstReport, body(sarif(3)), async () => undefined)).resolves.toMatchObject({ results: 3 });
  });

  it('runs reports beyond its size one after another, and refuses work once closed', async () => {
    const ship = async () => undefined;
    const all = await Promise.all([1, 2, 3].map((n) => pool.encode(firstReport, body(sarif(n * 100)), ship)));
    expect(all.map((summary) => summary.results)).toEqual([100, 200, 300]);
    await pool.close();
    await expect(pool.encode(firstReport, body(sarif(1)), ship)).rejects.toThrow('closed');
  });
});
