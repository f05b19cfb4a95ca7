import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CopyTextBuffer } from './copy-text-buffer';

/**
 * The staging half of report ingest. Findings are encoded as COPY text while the body streams
 * in and shipped in batches: each batch is COPYed into a temporary table and merged into
 * `findings` (ingest-merge.repo) inside the one ingest transaction, while the next batch is
 * being parsed — the parser (Node) and the index maintenance (PostgreSQL) run side by side.
 * Nothing is visible to anyone until COMMIT; a parse error, a truncated body or a killed process
 * rolls the whole transaction back, temp table included, so a bad report writes nothing.
 */
export interface TStagedFinding {
  fingerprint: string;
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
  await copyRows(client, `COPY ${STAGING_TABLE} (${COLUMNS}) FROM STDIN`, rows);
}

/** Runs a `COPY … FROM STDIN` statement with rows already encoded in COPY text format (UTF-8). */
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
}

/** How a batcher turns rows into COPY text, and what travels with each batch besides the text. */
export interface TBatchEncoder<TMeta> {
  /** The COPY line(s) of a row; '' to leave it out. */
  encode(seq: number, row: TStagedFinding): string;
  /** What goes with the batch about to be shipped (called once per batch, in order). */
  cut(): TMeta;
}

const STAGING_ENCODER: TBatchEncoder<undefined> = { encode: (seq, row) => encodeRow(seq, row), cut: () => undefined };

/**
 * Batches rows and runs `ship(rows, meta)` for each (`rows`: the batch's COPY text, UTF-8 chunks),
 * one at a time, at most one batch ahead: while batch n is in the database, batch n+1 is being
 * filled; filling n+2 waits for n.
 */
export class StagingBatcher<TMeta = undefined> {
  private readonly pending = new CopyTextBuffer();
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
    this.pending.append(this.encoder.encode(this.seq++, row));
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
    this.pending.take();
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

export function encodeRow(seq: number, row: TStagedFinding): string {
  return (
    `${seq}\t${copyText(row.fingerprint)}\t${copyText(row.severity)}\t${copyText(row.title)}\t${copyNullable(row.description)}\t` +
    `${copyText(row.ruleId)}\t${copyNullable(row.ruleName)}\t${copyTextArray(row.cwe)}\t${copyTextArray(row.cve)}\t` +
    `${copyJson(row.location)}\t${copyJson(row.evidence ?? [])}\t${copyJson(row.suppression)}\n`
  );
}

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
// NUL cannot be stored in text or jsonb at all, so it is dropped rather than failing the report.
const SPECIAL = /[\\\t\n\r\u0000]/;
export function copyText(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r\u0000]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : ''));
}

export function copyNullable(value: string | undefined): string {
  return value === undefined ? '\\N' : copyText(value);
}

export function copyJson(value: unknown): string {
  if (value === undefined || value === null) return '\\N';
  // JSON.stringify escapes every control character, so of COPY's specials only the backslash
  // can occur in its output: one plain replace instead of copyText's scan and callback.
  const text = jsonText(value);
  return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
}

// jsonb refuses the \u0000 escape; the rare value that has one is re-serialized without NULs.
function jsonText(value: unknown): string {
  const out = JSON.stringify(value);
  if (!out.includes('\\u0000')) return out;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.replace(/\u0000/g, '') : v));
}

/** A PostgreSQL array literal: every element double-quoted, quotes and backslashes escaped. */
export function copyTextArray(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  return copyText(`{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`);
}
