import type pg from 'pg';
import {
  EVENT_GROUP,
  FINDINGS_TOPIC,
  findingsOfEntitySql,
  SUPPRESSED_REASON_SQL,
  UUID_V7_SQL,
  type TMergeCounts,
  type TMergeScope,
} from './ingest-merge.repo';
import { appendOutboxRows } from './outbox.repo';
import { CopyBinaryRows } from './copy-binary-rows';
import { copyRows, type TStagedFinding } from './ingest-staging.repo';

/**
 * The first report of an entity and tool: nothing is known yet, so there is nothing to merge
 * with, update or mark fixed. Rows are COPYed straight into `findings` — no staging table, no
 * anti-join — which is most of the cost of a large first report (bench/README.md). Whether a
 * report is a first one is decided under the (org, entity, tool) ingest lock (hasFindingsFor),
 * and fingerprints are derived from entity and tool, so no other report can insert one of these
 * fingerprints meanwhile; repeats inside the report are dropped here, first one kept.
 */

/** Whether this entity and tool already have findings (then the report is merged, not copied). */
export async function hasFindingsFor(client: pg.PoolClient, scope: TMergeScope): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT EXISTS (SELECT 1 FROM ${findingsOfEntitySql({ org: '$1', type: '$2', id: '$3' })} AND f.tool = $4::text) AS known`,
    [scope.orgId, scope.entity.type, scope.entity.id, scope.tool],
  );
  return rows[0].known === true;
}

/**
 * Rows per COPY batch. Nothing is merged per batch, so a batch costs only its COPY and outbox
 * rows, and a small one shortens what is left to do after the body ends: the last batch, which
 * nothing overlaps (5,000 rows left ~0.1 s of it on a large report; bench/README.md, ingest).
 */
export const FIRST_REPORT_BATCH_ROWS = 2_000;

const COLUMNS =
  'id, org_id, fingerprint, severity, status, title, description, tool, rule_id, rule_name, cwe, cve, ' +
  'entity_type, entity_id, entity_name, location, evidence, suppression, ' +
  'first_seen_at, last_seen_at, first_seen_scan_id, last_seen_scan_id, created_at, updated_at';
const COLUMN_COUNT = COLUMNS.split(',').length;

type TCreatedEvent = { finding_id: string; severity: string; title: string; status: string; previous_status: null };

/**
 * Encodes a first report's findings as COPY tuples of `findings` (one batch at a time, see
 * StagingBatcher) and ships each batch with its `findings.created` outbox rows, grouped as the
 * merge path groups them (EVENT_GROUP findings per row, within a batch).
 */
export class FirstReportWriter {
  private readonly seen = new Set<string>();
  private events: TCreatedEvent[] = [];
  private staged = 0;
  private suppressed = 0;
  private readonly outboxIds: string[] = [];
  /** The columns every row of the report shares, encoded once. */
  private readonly shared: { org: Buffer; tool: Buffer; entity: Buffer; seen: Buffer };

  constructor(
    private readonly client: pg.PoolClient,
    private readonly scope: TMergeScope,
  ) {
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
  readonly encode = (out: CopyBinaryRows, _seq: number, row: TStagedFinding): void => {
    this.staged++;
    const known = this.seen.size;
    if (this.seen.add(row.fingerprint).size === known) return;
    const suppressed = row.suppression !== undefined && row.suppression !== null;
    const status = suppressed ? 'dismissed' : 'open';
    if (suppressed) this.suppressed++;
    const shared = this.shared;
    // In COLUMNS order.
    const id = out.row(COLUMN_COUNT).newUuidV7();
    this.events.push({ finding_id: id, severity: row.severity, title: row.title, status, previous_status: null });
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
  };

  /** The events of the rows encoded since the last cut: they travel with that batch. */
  readonly cut = (): TCreatedEvent[] => {
    const events = this.events;
    this.events = [];
    return events;
  };

  /** COPYs one batch into `findings` and writes its outbox rows, in the ingest transaction. */
  readonly ship = async (rows: Buffer[], events: TCreatedEvent[]): Promise<void> => {
    if (rows.length > 0) await copyRows(this.client, `COPY findings (${COLUMNS}) FROM STDIN (FORMAT binary)`, rows);
    const groups: Array<Parameters<typeof appendOutboxRows>[1][number]> = [];
    for (let at = 0; at < events.length; at += EVENT_GROUP) {
      groups.push({
        orgId: this.scope.orgId,
        topic: FINDINGS_TOPIC,
        event: 'findings.created',
        payload: {
          scan_id: this.scope.scanId,
          tool: this.scope.tool,
          entity: this.scope.entity,
          findings: events.slice(at, at + EVENT_GROUP),
        },
      });
    }
    this.outboxIds.push(...(await appendOutboxRows(this.client, groups)));
  };

  /**
   * After the last batch: the history rows of findings that start dismissed (suppressed in the
   * report), as the merge path writes them; the report's counts.
   */
  async finish(): Promise<TMergeCounts> {
    if (this.suppressed > 0) {
      await this.client.query(
        `INSERT INTO finding_history (id, org_id, finding_id, at, from_status, to_status, actor_type, actor_id, reason, scan_id, data)
         SELECT ${UUID_V7_SQL}, f.org_id, f.id, $4::timestamptz, NULL, 'dismissed', 'scanner', $2::text, ${SUPPRESSED_REASON_SQL('f.suppression')}, $3::uuid,
                jsonb_build_object('suppression', f.suppression)
           FROM findings f
          WHERE f.org_id = $1::uuid AND f.last_seen_scan_id = $3::uuid AND f.tool = $2::text AND f.suppression IS NOT NULL`,
        [this.scope.orgId, this.scope.tool, this.scope.scanId, this.scope.at],
      );
    }
    const distinct = this.seen.size;
    return {
      staged: this.staged,
      distinct,
      new: distinct,
      seenAgain: 0,
      suppressed: this.suppressed,
      duplicates: this.staged - distinct,
      outboxIds: this.outboxIds,
    };
  }
}
