import type pg from 'pg';
import {
  FINDINGS_TOPIC,
  findingsOfEntitySql,
  SUPPRESSED_REASON_SQL,
  UUID_V7_SQL,
  type TMergeCounts,
  type TMergeScope,
} from './ingest-merge.repo';
import { appendOutboxRows } from './outbox.repo';
import { FIRST_REPORT_COLUMNS, type TCreatedEventGroups, type TEncodeTally } from './ingest-encoding';
import { copyRows } from './ingest-staging.repo';

/**
 * The first report of an entity and tool: nothing is known yet, so there is nothing to merge
 * with, update or mark fixed. Rows (FirstReportEncoder) are COPYed straight into `findings` —
 * no staging table, no anti-join — which is most of the cost of a large first report
 * (bench/README.md). Whether a report is a first one is decided under the (org, entity, tool)
 * ingest lock (hasFindingsFor).
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
 * Writes a first report's batches (FirstReportEncoder) into `findings`, each with its
 * `findings.created` outbox rows, grouped as the merge path groups them (EVENT_GROUP findings
 * per row, within a batch).
 */
export class FirstReportWriter {
  private readonly outboxIds: string[] = [];
  /** The payload's JSON text up to its `findings` list, the same for every row of the report. */
  private readonly payloadHead: string;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly scope: TMergeScope,
  ) {
    const head = JSON.stringify({ scan_id: scope.scanId, tool: scope.tool, entity: scope.entity });
    this.payloadHead = `${head.slice(0, -1)},"findings":`;
  }

  /** COPYs one batch into `findings` and writes its outbox rows (one per event group), in the ingest transaction. */
  async ship(rows: readonly Buffer[], eventGroups: Readonly<TCreatedEventGroups>): Promise<void> {
    if (rows.length > 0) await copyRows(this.client, `COPY findings (${FIRST_REPORT_COLUMNS}) FROM STDIN (FORMAT binary)`, rows);
    const outbox = eventGroups.map((findings) => ({
      orgId: this.scope.orgId,
      topic: FINDINGS_TOPIC,
      event: 'findings.created',
      payloadJson: `${this.payloadHead}${findings}}`,
    }));
    this.outboxIds.push(...(await appendOutboxRows(this.client, outbox)));
  }

  /**
   * After the last batch: the history rows of findings that start dismissed (suppressed in the
   * report), as the merge path writes them; the report's counts.
   */
  async finish(tally: TEncodeTally): Promise<TMergeCounts> {
    if (tally.suppressed > 0) {
      await this.client.query(
        `INSERT INTO finding_history (id, org_id, finding_id, at, from_status, to_status, actor_type, actor_id, reason, scan_id, data)
         SELECT ${UUID_V7_SQL}, f.org_id, f.id, $4::timestamptz, NULL, 'dismissed', 'scanner', $2::text, ${SUPPRESSED_REASON_SQL('f.suppression')}, $3::uuid,
                jsonb_build_object('suppression', f.suppression)
           FROM findings f
          WHERE f.org_id = $1::uuid AND f.last_seen_scan_id = $3::uuid AND f.tool = $2::text AND f.suppression IS NOT NULL`,
        [this.scope.orgId, this.scope.tool, this.scope.scanId, this.scope.at],
      );
    }
    return {
      staged: tally.staged,
      distinct: tally.distinct,
      new: tally.distinct,
      seenAgain: 0,
      suppressed: tally.suppressed,
      duplicates: tally.staged - tally.distinct,
      outboxIds: this.outboxIds,
    };
  }
}
