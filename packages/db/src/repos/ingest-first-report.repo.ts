import type pg from 'pg';
import { uuidv7 } from '../ids';
import { EVENT_GROUP, FINDINGS_TOPIC, SUPPRESSED_REASON_SQL, UUID_V7_SQL, type TMergeCounts, type TMergeScope } from './ingest-merge.repo';
import { appendOutboxRows } from './outbox.repo';
import { copyRows, copyText, copyJson, copyNullable, copyTextArray, type TStagedFinding } from './ingest-staging.repo';

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
    `SELECT EXISTS (SELECT 1 FROM findings WHERE org_id = $1::uuid AND entity_type = $2::entity_type AND entity_id = $3::text AND tool = $4::text) AS known`,
    [scope.orgId, scope.entity.type, scope.entity.id, scope.tool],
  );
  return rows[0].known === true;
}

/**
 * Rows per COPY batch. A first report's rows carry every column of `findings`, so its batches
 * are about twice the size of staged ones; half as many rows keeps the two batches alive at once
 * (one filling, one in the database) to the same few MiB.
 */
export const FIRST_REPORT_BATCH_ROWS = 5_000;

const COLUMNS =
  'id, org_id, fingerprint, severity, status, title, description, tool, rule_id, rule_name, cwe, cve, ' +
  'entity_type, entity_id, entity_name, location, evidence, suppression, ' +
  'first_seen_at, last_seen_at, first_seen_scan_id, last_seen_scan_id, created_at, updated_at';

type TCreatedEvent = { finding_id: string; severity: string; title: string; status: string; previous_status: null };

/**
 * Encodes a first report's findings as COPY rows of `findings` (one batch at a time, see
 * StagingBatcher) and ships each batch with its `findings.created` outbox rows, grouped as the
 * merge path groups them (EVENT_GROUP findings per row, within a batch).
 */
export class FirstReportWriter {
  private readonly seen = new Set<string>();
  private events: TCreatedEvent[] = [];
  private staged = 0;
  private suppressed = 0;
  private readonly outboxIds: string[] = [];
  private readonly scopeColumns: { afterId: string; afterDescription: string; afterCve: string; afterSuppression: string };

  constructor(
    private readonly client: pg.PoolClient,
    private readonly scope: TMergeScope,
  ) {
    const at = scope.at.toISOString();
    this.scopeColumns = {
      afterId: `\t${scope.orgId}\t`,
      afterDescription: `\t${copyText(scope.tool)}\t`,
      afterCve: `\t${scope.entity.type}\t${copyText(scope.entity.id)}\t${copyText(scope.entity.name)}\t`,
      afterSuppression: `\t${at}\t${at}\t${scope.scanId}\t${scope.scanId}\t${at}\t${at}\n`,
    };
  }

  /** The COPY line of a finding, or '' for a fingerprint this report already had. */
  readonly encode = (_seq: number, row: TStagedFinding): string => {
    this.staged++;
    if (this.seen.has(row.fingerprint)) return '';
    this.seen.add(row.fingerprint);
    const id = uuidv7();
    const suppressed = row.suppression !== undefined && row.suppression !== null;
    const status = suppressed ? 'dismissed' : 'open';
    this.events.push({ finding_id: id, severity: row.severity, title: row.title, status, previous_status: null });
    if (suppressed) this.suppressed++;
    const c = this.scopeColumns;
    // The fingerprint (hex) and the severity (an enum label) are ours, never in need of escapes.
    return (
      `${id}${c.afterId}${row.fingerprint}\t${row.severity}\t${status}\t${copyText(row.title)}\t${copyNullable(row.description)}` +
      `${c.afterDescription}${copyText(row.ruleId)}\t${copyNullable(row.ruleName)}\t${copyTextArray(row.cwe)}\t${copyTextArray(row.cve)}` +
      `${c.afterCve}${copyJson(row.location)}\t${copyJson(row.evidence ?? [])}\t${copyJson(row.suppression)}` +
      c.afterSuppression
    );
  };

  /** The events of the rows encoded since the last cut: they travel with that batch. */
  readonly cut = (): TCreatedEvent[] => {
    const events = this.events;
    this.events = [];
    return events;
  };

  /** COPYs one batch into `findings` and writes its outbox rows, in the ingest transaction. */
  readonly ship = async (rows: Buffer[], events: TCreatedEvent[]): Promise<void> => {
    if (rows.length > 0) await copyRows(this.client, `COPY findings (${COLUMNS}) FROM STDIN`, rows);
    const groups: Array<Parameters<typeof appendOutboxRows>[1][number]> = [];
    for (let at = 0; at < events.length; at += EVENT_GROUP) {
      groups.push({
        orgId: this.scope.orgId,
        topic: FINDINGS_TOPIC,
        event: 'findings.created',
        payload: { scan_id: this.scope.scanId, tool: this.scope.tool, entity: this.scope.entity, findings: events.slice(at, at + EVENT_GROUP) },
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
         SELECT ${UUID_V7_SQL}, f.org_id, f.id, $5::timestamptz, NULL, 'dismissed', 'scanner', $4::text, ${SUPPRESSED_REASON_SQL('f.suppression')}, $6::uuid,
                jsonb_build_object('suppression', f.suppression)
           FROM findings f
          WHERE f.org_id = $1::uuid AND f.entity_type = $2::entity_type AND f.entity_id = $3::text AND f.tool = $4::text
            AND f.last_seen_scan_id = $6::uuid AND f.suppression IS NOT NULL`,
        [this.scope.orgId, this.scope.entity.type, this.scope.entity.id, this.scope.tool, this.scope.at, this.scope.scanId],
      );
    }
    const distinct = this.seen.size;
    return { staged: this.staged, distinct, new: distinct, seenAgain: 0, suppressed: this.suppressed, duplicates: this.staged - distinct, outboxIds: this.outboxIds };
  }
}
