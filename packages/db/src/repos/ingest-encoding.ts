import { CopyBinaryRows, withoutNul } from './copy-binary-rows';

/**
 * The encoding half of report ingest: findings in, COPY batches out, no database. It runs
 * wherever the report is parsed — in the callback plane that is a worker thread, so that
 * parsing and encoding a large report overlap the plane's own I/O — and the batches travel to
 * the connection that COPYs them (ingest.repo), with what goes along: the `findings.created`
 * events of a first report, and at the end the tally the report's counts are made from.
 * Hence only plain data here (structured-clonable), and imports that load no database client.
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

/** What the rows of a report are encoded into, as decided under the ingest lock (ingest.repo begin). */
export type TIngestEncoding =
  /** Nothing known yet for this entity and tool: tuples of `findings` itself. */
  | { kind: 'first-report'; scope: TFirstReportScope }
  /** Tuples of the staging table, merged into `findings` batch by batch. */
  | { kind: 'staging' };

export interface TFirstReportScope {
  orgId: string;
  scanId: string;
  tool: string;
  entity: { type: string; id: string; name: string };
  at: Date;
}

/** What the encoder saw, for the report's counts: rows given, distinct fingerprints kept, suppressed among those. */
export interface TEncodeTally {
  staged: number;
  distinct: number;
  suppressed: number;
}

/** Findings per outbox row of finding events (the payload's `findings` list), on both ingest paths. */
export const EVENT_GROUP = 500;

/**
 * The `findings.created` events of one first-report batch: the JSON text of the `findings` list
 * of each of its outbox rows (EVENT_GROUP events at most, `{finding_id, severity, title, status,
 * previous_status}` each, as the merge path builds them in SQL). Text written beside the tuple,
 * not event objects: 100,000 objects built, cloned to the plane's main thread and serialized
 * there cost several times the text (bench/README.md, ingest).
 */
export type TCreatedEventGroups = string[];

/** How a batcher turns rows into COPY tuples, and what travels with each batch besides them. */
export interface TBatchEncoder<TMeta> {
  /** Writes the row's tuple (or nothing, to leave it out). */
  encode(out: CopyBinaryRows, seq: number, row: TStagedFinding): void;
  /** What goes with the batch about to be shipped (called once per batch, in order). */
  cut(): TMeta;
}

/**
 * Rows per staging batch: big enough that per-statement costs (ANALYZE, plan, outbox grouping)
 * vanish, small enough that two batches in memory (one parsing, one in the database) stay a few MiB.
 */
export const STAGING_BATCH_ROWS = 10_000;

/**
 * Rows per first-report batch. Nothing is merged per batch, so a batch costs its COPY and outbox
 * rows plus a few round trips; the last batch is what nothing overlaps after the body ends.
 * With encoding on a worker and batches queued ahead, 5,000 rows beat 2,000 (fewer round trips,
 * the connection stays busy) and matched 10,000 (bench/README.md, ingest).
 */
export const FIRST_REPORT_BATCH_ROWS = 5_000;

export const STAGING_COLUMNS = 'seq, fingerprint, severity, title, description, rule_id, rule_name, cwe, cve, location, evidence, suppression';

export const FIRST_REPORT_COLUMNS =
  'id, org_id, fingerprint, severity, status, title, description, tool, rule_id, rule_name, cwe, cve, ' +
  'entity_type, entity_id, entity_name, location, evidence, suppression, ' +
  'first_seen_at, last_seen_at, first_seen_scan_id, last_seen_scan_id, created_at, updated_at';
const FIRST_REPORT_COLUMN_COUNT = FIRST_REPORT_COLUMNS.split(',').length;

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

/** A staging tuple: the columns of the staging table, in STAGING_COLUMNS order. */
export function encodeStagingRow(out: CopyBinaryRows, seq: number, row: TStagedFinding): void {
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

const STAGING_ENCODER: TBatchEncoder<undefined> = { encode: encodeStagingRow, cut: () => undefined };

/**
 * A first report's findings as COPY tuples of `findings`, with their `findings.created` events
 * (cut per batch). Whether a report is a first one is decided under the (org, entity, tool)
 * ingest lock, and fingerprints are derived from entity and tool, so no other report can insert
 * one of these fingerprints meanwhile; repeats inside the report are dropped here, first one kept.
 */
export class FirstReportEncoder implements TBatchEncoder<TCreatedEventGroups> {
  private readonly seen = new Set<string>();
  private groups: TCreatedEventGroups = [];
  private group: string[] = [];
  private staged = 0;
  private suppressed = 0;
  /** The columns every row of the report shares, encoded once. */
  private readonly shared: { org: Buffer; tool: Buffer; entity: Buffer; seen: Buffer };

  constructor(scope: TFirstReportScope) {
    const { orgId, tool, entity, scanId, at } = scope;
    this.shared = {
      org: CopyBinaryRows.fieldsOf((out) => out.uuid(orgId)),
      tool: CopyBinaryRows.fieldsOf((out) => out.text(tool)),
      entity: CopyBinaryRows.fieldsOf((out) => out.text(entity.type).text(entity.id).text(entity.name)),
      // first_seen_at, last_seen_at, first_seen_scan_id, last_seen_scan_id, created_at, updated_at
      seen: CopyBinaryRows.fieldsOf((out) => out.timestamptz(at).timestamptz(at).uuid(scanId).uuid(scanId).timestamptz(at).timestamptz(at)),
    };
  }

  /** Writes the tuple of a finding, or nothing for a fingerprint this report already had. */
  encode(out: CopyBinaryRows, _seq: number, row: TStagedFinding): void {
    this.staged++;
    const known = this.seen.size;
    if (this.seen.add(row.fingerprint).size === known) return;
    const suppressed = row.suppression !== undefined && row.suppression !== null;
    const status = suppressed ? 'dismissed' : 'open';
    if (suppressed) this.suppressed++;
    const shared = this.shared;
    // In FIRST_REPORT_COLUMNS order.
    const id = out.row(FIRST_REPORT_COLUMN_COUNT).newUuidV7();
    // Ids are hex, severity and status enum labels: only the title needs escaping, and it goes
    // without NULs, as the tuple stores it.
    const title = JSON.stringify(withoutNul(row.title));
    this.group.push(`{"finding_id":"${id}","severity":"${row.severity}","title":${title},"status":"${status}","previous_status":null}`);
    if (this.group.length === EVENT_GROUP) this.closeGroup();
    out
      .fields(shared.org)
      .ascii(row.fingerprint)
      .ascii(row.severity)
      .ascii(status)
      .text(row.title)
      .nullableText(row.description)
      .fields(shared.tool)
      .text(row.ruleId)
      .nullableText(row.ruleName)
      .textArray(row.cwe)
      .textArray(row.cve)
      .fields(shared.entity)
      .json(row.location)
      .json(row.evidence ?? [])
      .jsonb(row.suppression)
      .fields(shared.seen);
  }

  /** The events of the rows encoded since the last cut: they travel with that batch. */
  cut(): TCreatedEventGroups {
    this.closeGroup();
    const groups = this.groups;
    this.groups = [];
    return groups;
  }

  private closeGroup(): void {
    if (this.group.length === 0) return;
    this.groups.push(`[${this.group.join(',')}]`);
    this.group = [];
  }

  tally(): TEncodeTally {
    return { staged: this.staged, distinct: this.seen.size, suppressed: this.suppressed };
  }
}

/** The batcher for an encoding; `tally()` once the batcher has ended. */
export function batcherFor(
  encoding: TIngestEncoding,
  ship: (rows: Buffer[], events: TCreatedEventGroups | undefined) => Promise<void>,
): { batcher: StagingBatcher<TCreatedEventGroups | undefined>; tally(): TEncodeTally } {
  if (encoding.kind === 'first-report') {
    const encoder = new FirstReportEncoder(encoding.scope);
    return { batcher: new StagingBatcher<TCreatedEventGroups | undefined>(ship, FIRST_REPORT_BATCH_ROWS, encoder), tally: () => encoder.tally() };
  }
  // Staged rows are deduplicated and counted by the merge (ingest-merge.repo), not here.
  const batcher = new StagingBatcher<TCreatedEventGroups | undefined>(ship, STAGING_BATCH_ROWS, STAGING_ENCODER);
  return { batcher, tally: () => ({ staged: batcher.rows, distinct: batcher.rows, suppressed: 0 }) };
}
