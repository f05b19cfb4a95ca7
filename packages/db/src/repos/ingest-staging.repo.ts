import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CopyBinaryRows, recycleCopyChunks } from './copy-binary-rows';

/**
 * The staging half of report ingest. Findings are encoded as COPY tuples while the body streams
 * in and shipped in batches: each batch is COPYed into a temporary table and merged into
 * `findings` (ingest-merge.repo) inside the one ingest transaction, while the next batch is
 * being parsed — the parser (Node) and the index maintenance (PostgreSQL) run side by side.
 * Nothing is visible to anyone until COMMIT; a parse error, a truncated body or a killed process
 * rolls the whole transaction back, temp table included, so a bad report writes nothing.
 */
export interface TStagedFinding {
  /** The hex digest from computeFingerprint (ASCII, written as is). */
  fingerprint: string;
  /** A severity label (ASCII). */
  severity: string;
  title: string;
  description?: string;
  ruleId: string;
  ruleName?: string;
  cwe: readonly string[];
  cve: readonly string[];
  location?: unknown;
  evidence: unknown;
  suppression?: unknown;
}

export const STAGING_TABLE = 'ingest_staging';

const COLUMNS = 'seq, fingerprint, severity, title, description, rule_id, rule_name, cwe, cve, location, evidence, suppression';

/**
 * Rows per batch: big enough that per-statement costs (ANALYZE, plan, outbox grouping) vanish,
 * small enough that two batches in memory (one parsing, one in the database) stay a few MiB.
 */
export const STAGING_BATCH_ROWS = 10_000;

export async function createStagingTable(client: pg.PoolClient): Promise<void> {
  // ON COMMIT DROP: the table lives exactly as long as the transaction; no cleanup path needed.
  await client.query(
    `CREATE TEMP TABLE ${STAGING_TABLE} (
       seq integer NOT NULL, fingerprint text NOT NULL, severity text NOT NULL, title text NOT NULL,
       description text, rule_id text NOT NULL, rule_name text, cwe text[] NOT NULL, cve text[] NOT NULL,
       location json, evidence json NOT NULL, suppression jsonb
     ) ON COMMIT DROP`,
  );
}

/** COPYs one batch of encoded rows into the (empty) staging table. */
export async function copyStagingBatch(client: pg.PoolClient, rows: readonly Buffer[]): Promise<void> {
  await copyRows(client, `COPY ${STAGING_TABLE} (${COLUMNS}) FROM STDIN (FORMAT binary)`, rows);
}

/**
 * Runs a `COPY … FROM STDIN (FORMAT binary)` statement with a stream from CopyBinaryRows.take();
 * once it has finished, the chunks go back for reuse.
 */
export async function copyRows(client: pg.PoolClient, statement: string, rows: readonly Buffer[]): Promise<void> {
  const stream = client.query(copyFrom(statement));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  for (const chunk of rows) {
    if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), finished]);
  }
  stream.end();
  await finished;
  // Only after success: a failed COPY may leave chunks queued on the connection being discarded.
  recycleCopyChunks(rows);
}

/** How a batcher turns rows into COPY tuples, and what travels with each batch besides them. */
export interface TBatchEncoder<TMeta> {
  /** Writes the row's tuple (or nothing, to leave it out). */
  encode(out: CopyBinaryRows, seq: number, row: TStagedFinding): void;
  /** What goes with the batch about to be shipped (called once per batch, in order). */
  cut(): TMeta;
}

const STAGING_ENCODER: TBatchEncoder<undefined> = { encode: (out, seq, row) => encodeRow(out, seq, row), cut: () => undefined };

/**
 * Batches rows and runs `ship(rows, meta)` for each (`rows`: the batch's COPY stream, binary
 * chunks), one at a time, at most one batch ahead: while batch n is in the database, batch n+1
 * is being filled; filling n+2 waits for n.
 */
export class StagingBatcher<TMeta = undefined> {
  private readonly pending = new CopyBinaryRows();
  private pendingRows = 0;
  private seq = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly ship: (rows: Buffer[], meta: TMeta) => Promise<void>,
    private readonly batchRows: number = STAGING_BATCH_ROWS,
    private readonly encoder: TBatchEncoder<TMeta> = STAGING_ENCODER as TBatchEncoder<TMeta>,
  ) {}

  get rows(): number {
    return this.seq;
  }

  /** Adds a row; a promise only when a batch was cut and must wait for the one in flight. */
  write(row: TStagedFinding): Promise<void> | undefined {
    this.encoder.encode(this.pending, this.seq++, row);
    this.pendingRows++;
    return this.pendingRows >= this.batchRows ? this.shipPending() : undefined;
  }

  /** Ships what is left and waits for every batch; throws the first batch failure. */
  async end(): Promise<void> {
    if (this.pendingRows > 0) await this.shipPending();
    await this.chain;
  }

  /** Drops rows not yet shipped and waits for the batch in flight, ignoring its outcome (before a rollback). */
  async abandon(): Promise<void> {
    this.pending.discard();
    this.pendingRows = 0;
    await this.chain.catch(() => undefined);
  }

  private async shipPending(): Promise<void> {
    const rows = this.pending.take();
    const meta = this.encoder.cut();
    this.pendingRows = 0;
    const previous = this.chain;
    this.chain = previous.then(() => this.ship(rows, meta));
    // A failure is reported by the next await of the chain (here or in end()), never unhandled.
    this.chain.catch(() => undefined);
    await previous;
  }
}

/** A staging tuple: the columns of STAGING_TABLE, in COLUMNS order. */
export function encodeRow(out: CopyBinaryRows, seq: number, row: TStagedFinding): void {
  out
    .row(12)
    .int4(seq)
    .ascii(row.fingerprint)
    .ascii(row.severity)
    .text(row.title)
    .nullableText(row.description)
    .text(row.ruleId)
    .nullableText(row.ruleName)
    .textArray(row.cwe)
    .textArray(row.cve)
    .json(row.location)
    .json(row.evidence ?? [])
    .jsonb(row.suppression);
}
