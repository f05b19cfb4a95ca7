import type pg from 'pg';
import { STAGING_TABLE } from './ingest-staging.repo';
import { EVENT_GROUP } from './ingest-encoding';

/**
 * The merge half of report ingest: set-based SQL from the staging table into `findings`, run
 * batch by batch inside the ingest transaction under the (org, entity, tool) advisory lock.
 *
 * Finding events go to the outbox in groups (up to EVENT_GROUP findings per row, topic
 * `findings`, events `findings.created` / `findings.status_changed`, payload listing the
 * findings): a first scan of a large codebase is then a few hundred outbox rows, stream entries
 * and deliveries instead of a hundred thousand, and the per-org stream is not flooded past its
 * trim length. They are written set-based (INSERT … SELECT) rather than through
 * appendOutboxRows, which would ship every row to Node and back.
 */

/** A UUIDv7 computed in SQL (48-bit ms timestamp + random), for rows created set-based. */
export const UUID_V7_SQL =
  "encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid";

export const FINDINGS_TOPIC = 'findings';

/** The history reason of a finding dismissed because the report suppresses it (`suppression` is the jsonb). */
export const SUPPRESSED_REASON_SQL = (suppression: string) =>
  `left('suppressed in the report (' || coalesce(${suppression}->>'kind', 'suppression') || ` +
  `coalesce(', ' || (${suppression}->>'status'), '') || ')' || coalesce(': ' || (${suppression}->>'justification'), ''), 2000)`;

/**
 * `FROM` the findings of one entity (the parameters that hold the org, entity type and entity
 * id; `s` the scan, `f` the finding), for a caller to narrow by tool. A finding belongs to one entity (its fingerprint is
 * derived from it) and only scans of that entity ever see it, so its last_seen_scan_id is one of
 * the entity's scans: the scans index yields them, and (org_id, last_seen_scan_id, id) their
 * findings. This keeps findings free of an entity index of their own, the costliest of its
 * indexes on a bulk insert (bench/README.md, ingest).
 */
export const findingsOfEntitySql = (p: { org: string; type: string; id: string }) => `scans s
    JOIN findings f ON f.org_id = s.org_id AND f.last_seen_scan_id = s.id
   WHERE s.org_id = ${p.org}::uuid AND s.entity_type = ${p.type}::entity_type AND s.entity_id = ${p.id}::text`;

export interface TMergeScope {
  orgId: string;
  scanId: string;
  tool: string;
  entity: { type: string; id: string; name: string };
  at: Date;
  /**
   * A newer scan (scan ids are UUIDv7: id order is creation order) of this entity and tool has
   * already delivered a complete report: this one arrived late. It may add what it saw, but the
   * newer report is the truth about the present — see UPSERT_SQL and markAbsentFindingsFixed.
   */
  stale?: boolean;
}

export interface TMergeCounts {
  staged: number;
  /** Distinct findings of the report merged by this batch (repeats of earlier batches excluded). */
  distinct: number;
  new: number;
  seenAgain: number;
  suppressed: number;
  /** Rows repeating a fingerprint already merged from this report (this batch or an earlier one). */
  duplicates: number;
  outboxIds: string[];
}

// json, not jsonb, built for the json column: jsonb would be built and then printed back to text.
const EVENTS_SQL = (source: string, event: string) => `
  INSERT INTO outbox (id, org_id, topic, event, payload)
  SELECT ${UUID_V7_SQL}, $1, '${FINDINGS_TOPIC}', '${event}',
         json_build_object('scan_id', $2::uuid, 'tool', $6::text,
           'entity', json_build_object('type', $3::text, 'id', $4::text, 'name', $5::text),
           'findings', json_agg(json_build_object('finding_id', g.id, 'severity', g.severity, 'title', g.title,
                                                  'status', g.to_status, 'previous_status', g.from_status) ORDER BY g.n))
    FROM (SELECT x.*, row_number() OVER () AS n FROM ${source} x) g
   GROUP BY (g.n - 1) / ${EVENT_GROUP}
  RETURNING id`;

/**
 * New fingerprints are inserted; known ones get last_seen moved forward and their content
 * refreshed. Status moves only where the report says something new: a fixed finding seen
 * again reopens (a regression), a suppressed result is stored dismissed with the suppression as
 * its reason, and a finding dismissed only because of a suppression reopens once the
 * suppression is gone. Human verdicts (confirmed, risk_accepted, a dismissal without a
 * suppression) are never overridden by a scanner. History records every status change (a
 * finding's creation is its first_seen_at / first_seen_scan_id, unless it starts dismissed).
 * Rows go in fingerprint order, which turns the unique index's random inserts into a merge.
 */
const UPSERT_SQL = `
WITH src AS (
  SELECT DISTINCT ON (fingerprint) * FROM ${STAGING_TABLE} ORDER BY fingerprint, seq
),
prev AS (
  SELECT f.id, f.fingerprint, f.status, f.suppression AS old_suppression,
         f.last_seen_scan_id IS NOT DISTINCT FROM $2::uuid AS in_this_report,
         coalesce(f.last_seen_scan_id > $2::uuid, false) AS seen_by_newer
    FROM findings f JOIN src ON src.fingerprint = f.fingerprint WHERE f.org_id = $1
   FOR UPDATE OF f
),
updated AS (
  UPDATE findings f SET
    severity = s.severity::severity, title = s.title, description = s.description,
    rule_name = s.rule_name, cwe = s.cwe, cve = s.cve, location = s.location, evidence = s.evidence,
    suppression = CASE WHEN p.status = 'dismissed' AND p.old_suppression IS NULL THEN NULL ELSE s.suppression END,
    last_seen_at = $7, last_seen_scan_id = $2, updated_at = $7,
    status = (CASE
      WHEN s.suppression IS NOT NULL AND p.status IN ('open', 'fixed', 'fix_pending_verification') THEN 'dismissed'
      WHEN s.suppression IS NULL AND p.status = 'dismissed' AND p.old_suppression IS NOT NULL THEN 'open'
      WHEN s.suppression IS NULL AND p.status IN ('fixed', 'fix_pending_verification') AND NOT $8::boolean THEN 'open'
      ELSE p.status::text END)::finding_status
    FROM prev p JOIN src s ON s.fingerprint = p.fingerprint
   -- A late report never rewinds what a newer scan already said about a finding.
   WHERE f.id = p.id AND NOT p.seen_by_newer
  RETURNING f.id, f.severity, f.title, f.suppression, f.status AS to_status, p.status AS from_status, p.in_this_report
),
-- Plain INSERT, not ON CONFLICT: under the (org, entity, tool) lock nobody else can insert these
-- fingerprints (they are derived from entity and tool), and speculative insertion costs per row.
inserted AS (
  INSERT INTO findings (
    id, org_id, fingerprint, severity, status, title, description, tool, rule_id, rule_name, cwe, cve,
    entity_type, entity_id, entity_name, location, evidence, suppression,
    first_seen_at, last_seen_at, first_seen_scan_id, last_seen_scan_id, created_at, updated_at)
  SELECT ${UUID_V7_SQL}, $1, s.fingerprint, s.severity::severity,
         -- New to us but absent from the newer complete report that came first: already fixed.
         (CASE WHEN s.suppression IS NOT NULL THEN 'dismissed' WHEN $8::boolean THEN 'fixed' ELSE 'open' END)::finding_status,
         s.title, s.description, $6, s.rule_id, s.rule_name, s.cwe, s.cve,
         $3::entity_type, $4, $5, s.location, s.evidence, s.suppression,
         $7, $7, $2, $2, $7, $7
    FROM src s WHERE NOT EXISTS (SELECT 1 FROM prev p WHERE p.fingerprint = s.fingerprint)
  RETURNING id, severity, title, suppression, status AS to_status, NULL::finding_status AS from_status, false AS in_this_report
),
changes AS (
  SELECT * FROM updated UNION ALL SELECT * FROM inserted
),
moved AS (
  SELECT * FROM changes WHERE from_status IS DISTINCT FROM to_status
),
history AS (
  INSERT INTO finding_history (id, org_id, finding_id, at, from_status, to_status, actor_type, actor_id, reason, scan_id, data)
  SELECT ${UUID_V7_SQL}, $1, m.id, $7, m.from_status, m.to_status, 'scanner', $6,
         CASE
           WHEN m.to_status = 'dismissed' THEN ${SUPPRESSED_REASON_SQL('m.suppression')}
           WHEN m.from_status = 'dismissed' THEN 'the report no longer suppresses it'
           WHEN m.from_status IS NULL AND m.to_status = 'fixed' THEN 'reported late: absent from a newer complete report of this tool'
           ELSE 'seen again after being ' || m.from_status
         END,
         $2, CASE WHEN m.suppression IS NULL THEN NULL ELSE jsonb_build_object('suppression', m.suppression) END
    FROM moved m WHERE m.from_status IS NOT NULL OR m.to_status <> 'open'
  RETURNING 1
),
created_events AS (${EVENTS_SQL('(SELECT * FROM moved WHERE from_status IS NULL)', 'findings.created')}),
changed_events AS (${EVENTS_SQL('(SELECT * FROM moved WHERE from_status IS NOT NULL)', 'findings.status_changed')})
SELECT (SELECT count(*) FROM ${STAGING_TABLE})::int AS staged,
       -- Every distinct finding of this batch that an earlier batch did not already bring, also
       -- those a newer scan has seen since (a late report still saw them: they count as its own).
       ((SELECT count(*) FROM src) - (SELECT count(*) FROM prev WHERE in_this_report))::int AS distinct,
       count(*) FILTER (WHERE from_status IS NULL)::int AS new,
       count(*) FILTER (WHERE from_status IS NOT NULL AND NOT in_this_report)::int AS seen_again,
       count(*) FILTER (WHERE suppression IS NOT NULL AND NOT in_this_report)::int AS suppressed,
       count(*) FILTER (WHERE in_this_report)::int AS repeated,
       (SELECT count(*) FROM history)::int AS status_changes,
       (SELECT coalesce(array_agg(id::text), '{}') FROM (SELECT id FROM created_events UNION ALL SELECT id FROM changed_events) e) AS event_ids
  FROM changes`;

/**
 * Open findings of this entity and tool that this complete report did not contain are fixed.
 * Only scanner-owned states move: a finding a human dismissed or accepted stays as it is.
 */
const MARK_FIXED_SQL = `
WITH gone AS (
  SELECT f.id, f.status FROM ${findingsOfEntitySql({ org: '$1', type: '$3', id: '$4' })} AND f.tool = $6
     AND f.status IN ('open', 'confirmed', 'fix_pending_verification')
     -- Last seen by an older scan; one seen by a newer scan (an incomplete report) is not ours to judge.
     AND s.id < $2
   FOR UPDATE OF f
),
fixed AS (
  UPDATE findings f SET status = 'fixed', updated_at = $7 FROM gone WHERE f.id = gone.id
  RETURNING f.id, f.severity, f.title, gone.status AS from_status, f.status AS to_status
),
history AS (
  INSERT INTO finding_history (id, org_id, finding_id, at, from_status, to_status, actor_type, actor_id, reason, scan_id)
  SELECT ${UUID_V7_SQL}, $1, x.id, $7, x.from_status, 'fixed', 'scanner', $6, 'absent from a complete report of this tool', $2
    FROM fixed x
  RETURNING 1
),
events AS (${EVENTS_SQL('fixed', 'findings.status_changed')})
SELECT (SELECT count(*) FROM fixed)::int AS fixed, (SELECT count(*) FROM history)::int AS h,
       (SELECT coalesce(array_agg(id::text), '{}') FROM events) AS event_ids`;

function params(scope: TMergeScope): unknown[] {
  return [scope.orgId, scope.scanId, scope.entity.type, scope.entity.id, scope.entity.name, scope.tool, scope.at];
}

/** Whether a newer scan of this entity and tool has already delivered a complete report. */
export async function isStaleReport(client: pg.PoolClient, scope: Omit<TMergeScope, 'stale'>): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT EXISTS (
       SELECT 1 FROM scans s JOIN scan_tools t ON t.org_id = s.org_id AND t.scan_id = s.id
        WHERE s.org_id = $1 AND s.entity_type = $3::entity_type AND s.entity_id = $4 AND t.tool = $5
          AND s.id > $2::uuid AND t.status = 'succeeded' AND t.report_complete
     ) AS stale`,
    [scope.orgId, scope.scanId, scope.entity.type, scope.entity.id, scope.tool],
  );
  return rows[0].stale === true;
}

/** Merges the staged batch, then empties the staging table for the next one. */
export async function mergeStagedFindings(client: pg.PoolClient, scope: TMergeScope): Promise<TMergeCounts> {
  // No ANALYZE of the staging table: unanalyzed, the planner sizes it from its pages and probes
  // findings through the (org_id, fingerprint) index; measured, ANALYZE per batch cost more than
  // it saved (and on a re-scan led to plans twice as slow).
  const { rows } = await client.query(UPSERT_SQL, [...params(scope), scope.stale === true]);
  await client.query(`TRUNCATE ${STAGING_TABLE}`);
  const row = rows[0] as Record<string, number> & { event_ids: string[] };
  return {
    staged: row.staged,
    distinct: row.distinct,
    new: row.new,
    seenAgain: row.seen_again,
    suppressed: row.suppressed,
    duplicates: row.staged - row.distinct,
    outboxIds: row.event_ids,
  };
}

/** How many findings became fixed, and the outbox rows that announce it. */
export async function markAbsentFindingsFixed(client: pg.PoolClient, scope: TMergeScope): Promise<{ fixed: number; outboxIds: string[] }> {
  // A late report judges nothing absent: the newer complete report already did.
  if (scope.stale) return { fixed: 0, outboxIds: [] };
  const { rows } = await client.query(MARK_FIXED_SQL, params(scope));
  const row = rows[0] as { fixed: number; event_ids: string[] };
  return { fixed: row.fixed, outboxIds: row.event_ids };
}

export function addCounts(a: TMergeCounts, b: TMergeCounts): TMergeCounts {
  return {
    staged: a.staged + b.staged,
    distinct: a.distinct + b.distinct,
    new: a.new + b.new,
    seenAgain: a.seenAgain + b.seenAgain,
    suppressed: a.suppressed + b.suppressed,
    duplicates: a.duplicates + b.duplicates,
    outboxIds: [...a.outboxIds, ...b.outboxIds],
  };
}

export const NO_COUNTS: TMergeCounts = { staged: 0, distinct: 0, new: 0, seenAgain: 0, suppressed: 0, duplicates: 0, outboxIds: [] };
