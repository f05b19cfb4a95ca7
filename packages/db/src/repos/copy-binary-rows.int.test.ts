import { useTestDatabase } from '@palisade/testing/test-database';
import { CopyBinaryRows } from './copy-binary-rows';
import { copyRows } from './ingest-staging.repo';

// Every field kind CopyBinaryRows writes, COPYed into a real table and read back as text.
describe('CopyBinaryRows through COPY (FORMAT binary)', () => {
  const t = useTestDatabase();

  async function roundTrip(fill: (rows: CopyBinaryRows) => void): Promise<Array<Record<string, unknown>>> {
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`CREATE TYPE pg_temp.mood AS ENUM ('calm', 'high')`).catch(() => undefined);
      await client.query(
        `CREATE TEMP TABLE every_kind (n integer, id uuid, at timestamptz(3), label text, short varchar(8), mood pg_temp.mood,
           tags text[], doc json, docb jsonb) ON COMMIT DROP`,
      );
      const rows = new CopyBinaryRows();
      fill(rows);
      await copyRows(client, 'COPY every_kind FROM STDIN (FORMAT binary)', rows.take());
      const { rows: out } = await client.query(
        `SELECT n, id::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at, label, short, mood::text,
                tags, doc::text AS doc, docb FROM every_kind ORDER BY n`,
      );
      await client.query('ROLLBACK');
      return out;
    } finally {
      client.release();
    }
  }

  it('stores text as sent (tabs, newlines, backslashes, quotes, multi-byte) and drops NUL', async () => {
    const tricky = 'a\tb\nc\\d "e" naïve ✓ 𝄞';
    const [row] = await roundTrip((rows) =>
      rows
        .row(9)
        .int4(-7)
        .uuid('01a20adf-100a-7004-9ded-c3a8c1b34f95')
        .timestamptz(new Date('2026-11-24T01:02:03.456Z'))
        .text(`${tricky}\u0000!`)
        .nullableText('short')
        .ascii('high')
        .textArray(['CWE-79', 'say "hi" \\ {x,y}', '', 'NULL', 'ü'])
        .json({ path: 'x\ty', snippet: 'a\u0000b' })
        .jsonb({ kind: 'k', n: [1, 2] }),
    );
    expect(row).toEqual({
      n: -7,
      id: '01a20adf-100a-7004-9ded-c3a8c1b34f95',
      at: '2026-11-24T01:02:03.456',
      label: `${tricky}!`,
      short: 'short',
      mood: 'high',
      tags: ['CWE-79', 'say "hi" \\ {x,y}', '', 'NULL', 'ü'],
      doc: '{"path":"x\\ty","snippet":"ab"}',
      docb: { kind: 'k', n: [1, 2] },
    });
  });

  it('writes NULLs, empty arrays and timestamps before 2000', async () => {
    const [row] = await roundTrip((rows) =>
      rows
        .row(9)
        .int4(1)
        .null()
        .timestamptz(new Date('1999-12-31T23:59:59.999Z'))
        .nullableText(undefined)
        .nullableText(null)
        .ascii('calm')
        .textArray([])
        .json(undefined)
        .jsonb(null),
    );
    expect(row).toEqual({
      n: 1,
      id: null,
      at: '1999-12-31T23:59:59.999',
      label: null,
      short: null,
      mood: 'calm',
      tags: [],
      doc: null,
      docb: null,
    });
  });

  it('spans many chunks, with fields larger than a chunk and replayed constant fields', async () => {
    const shared = CopyBinaryRows.fieldsOf((out) => out.uuid('0190f5a2-0000-7000-8000-000000000001').timestamptz(new Date(0)));
    const big = 'é'.repeat(700_000); // 1.4 MB of UTF-8: more than a chunk
    const rows = await roundTrip((out) => {
      for (let n = 0; n < 30_000; n++) {
        out
          .row(9)
          .int4(n)
          .fields(shared)
          .text(n === 12_345 ? big : `row ${n}`)
          .nullableText(null)
          .ascii('calm')
          .textArray([String(n)])
          .json({ n })
          .jsonb([n]);
      }
    });
    expect(rows).toHaveLength(30_000);
    expect(rows[12_345].label).toBe(big);
    expect(rows[29_999]).toMatchObject({
      n: 29_999,
      id: '0190f5a2-0000-7000-8000-000000000001',
      at: '1970-01-01T00:00:00.000',
      label: 'row 29999',
      tags: ['29999'],
      docb: [29_999],
    });
  });

  it('takes nothing when no row was written, and refuses a malformed UUID', () => {
    const rows = new CopyBinaryRows();
    expect(rows.take()).toEqual([]);
    expect(() => rows.row(1).uuid('not-a-uuid')).toThrow('not a UUID');
    expect(() => new CopyBinaryRows().uuid('01a20adf-100a-7004-9ded-c3a8c1b34f9')).toThrow('not a UUID');
  });
});
