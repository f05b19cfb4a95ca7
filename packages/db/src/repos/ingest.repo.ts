import type pg from 'pg';
import type { TEntityType, TScanStatus, TToolStatus } from '@palisade/contracts';
import { uuidv7 } from '../ids';
import { transitionTool, type TToolTransitionResult } from './scan-lifecycle.repo';
import { NO_COUNTS, addCounts, isStaleReport, markAbsentFindingsFixed, mergeStagedFindings, type TMergeCounts, type TMergeScope } from './ingest-merge.repo';
import { FirstReportWriter, hasFindingsFor } from './ingest-first-report.repo';
import type { TCreatedEventGroups, TEncodeTally, TIngestEncoding } from './ingest-encoding';
import { copyStagingBatch, createStagingTable } from './ingest-staging.repo';

/**
 * Scanner-callback ingest on the primary's pg pool: plain SQL and COPY, one transaction per
 * report. The sequence a caller drives (apps/callback-api ingest.service):
 *
 *   loadCallbackTarget(scanId)      → the scan and its tools, to verify the credential against
 *   const tx = await begin(scope)   → BEGIN, pg_advisory_xact_lock per (org, entity, tool), and
 *                                     tx.encoding: either a first report (nothing known yet: COPY
 *                                     into findings) or a staging table to merge from
 *   tx.receipt(…) / tx.toolStatus(…) → re-checked under the lock
 *   tx.ship(rows, events) …         → each batch encoded as tx.encoding says (ingest-encoding), COPYed
 *                                     (+ merged) while the body streams; any failure → tx.rollback()
 *   await tx.endStaging(tally)      → the report's counts
 *   tx.markFixed() / tx.finishTool(...) / tx.saveReceipt(...)
 *   tx.commit()
 *
 * The lock is taken first so that batches can be merged while the body is still arriving:
 * two reports for the same entity and tool are applied one after the other, never interleaved.
 *
 * The credential lookup is the one query here without a tenant in its `where`: the tenant is
 * what the verified credential proves, so it cannot be known before.
 */
export interface TCallbackTool {
  id: string;
  tool: string;
  status: TToolStatus;
  callbackTokenHash: string | null;
  deadlineAt: Date | null;
}

export interface TCallbackTarget {
  scanId: string;
  orgId: string;
  status: TScanStatus;
  entity: { type: TEntityType; id: string; name: string };
  tools: TCallbackTool[];
}

export interface TIngestReceipt {
  bodySha256: string;
  result: unknown;
}

export interface TIngestTransaction {
  readonly client: pg.PoolClient;
  receipt(orgId: string, scanToolId: string, idempotencyKey: string): Promise<TIngestReceipt | null>;
  toolStatus(orgId: string, scanToolId: string): Promise<TToolStatus | null>;
  /** How the report's rows must be encoded for ship(). */
  readonly encoding: TIngestEncoding;
  /** COPYs one encoded batch (and merges it, or writes its events); one at a time, in order. */
  ship(rows: readonly Buffer[], events: Readonly<TCreatedEventGroups> | undefined): Promise<void>;
  /** After the last batch: the counts of the whole report. */
  endStaging(tally: TEncodeTally): Promise<TMergeCounts>;
  markFixed(): Promise<{ fixed: number; outboxIds: string[] }>;
  finishTool(orgId: string, scanId: string, tool: string, to: TToolStatus, patch: { findingsCount?: number; reportComplete?: boolean; at: Date; error?: { error_code: string; message: string } | null }): Promise<TToolTransitionResult>;
  saveReceipt(input: { orgId: string; scanToolId: string; idempotencyKey: string; bodySha256: string; result: unknown }): Promise<void>;
  commit(): Promise<void>;
  /** Safe to call more than once and after a failed commit. */
  rollback(): Promise<void>;
}

export function makeIngestRepo(pool: pg.Pool) {
  return {
    async loadCallbackTarget(scanId: string): Promise<TCallbackTarget | null> {
      const { rows } = await pool.query(
        `SELECT s.id::text AS scan_id, s.org_id::text AS org_id, s.status::text AS scan_status,
                s.entity_type::text AS entity_type, s.entity_id, s.entity_name,
                t.id::text AS tool_id, t.tool, t.status::text AS tool_status, t.callback_token_hash, t.deadline_at
           FROM scans s LEFT JOIN scan_tools t ON t.org_id = s.org_id AND t.scan_id = s.id
          WHERE s.id = $1::uuid
          ORDER BY t.created_at, t.id`,
        [scanId],
      );
      if (rows.length === 0) return null;
      const first = rows[0];
      return {
        scanId: first.scan_id,
        orgId: first.org_id,
        status: first.scan_status,
        entity: { type: first.entity_type, id: first.entity_id, name: first.entity_name },
        tools: rows
          .filter((row) => row.tool_id !== null)
          .map((row) => ({ id: row.tool_id, tool: row.tool, status: row.tool_status, callbackTokenHash: row.callback_token_hash, deadlineAt: row.deadline_at })),
      };
    },

    /** Outside a transaction: the replay check of a tool that has already reported. */
    async receipt(orgId: string, scanToolId: string, idempotencyKey: string): Promise<TIngestReceipt | null> {
      return findReceipt(pool, orgId, scanToolId, idempotencyKey);
    },

    /** BEGIN, the (org, entity, tool) lock, then the first-report writer or a staging table. The caller must commit or roll back. */
    async begin(given: TMergeScope): Promise<TIngestTransaction> {
      let scope = given;
      let first: FirstReportWriter | null = null;
      const client = await pool.connect();
      let open = true;
      let broken = false;
      const release = () => {
        if (!open) return;
        open = false;
        // A connection whose COPY or transaction was interrupted is not trusted with the next caller.
        client.release(broken ? new Error('ingest connection discarded') : undefined);
      };
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          JSON.stringify(['ingest', scope.orgId, scope.entity.type, scope.entity.id, scope.tool]),
        ]);
        // Decided under the lock, so that no newer report can complete between the check and the merge.
        scope = { ...given, stale: await isStaleReport(client, given) };
        // Under the lock too: nobody else can give this entity and tool their first findings meanwhile.
        first = scope.stale ? null : (await hasFindingsFor(client, scope)) ? null : new FirstReportWriter(client, scope);
        if (first === null) await createStagingTable(client);
      } catch (error) {
        broken = true;
        release();
        throw error;
      }
      let counts = NO_COUNTS;
      // The batch in the database, if any: rollback lets it settle before ROLLBACK.
      let inFlight: Promise<void> = Promise.resolve();
      const shipBatch = async (rows: readonly Buffer[], events: Readonly<TCreatedEventGroups> | undefined): Promise<void> => {
        if (first !== null) return first.ship(rows, events ?? []);
        await copyStagingBatch(client, rows);
        counts = addCounts(counts, await mergeStagedFindings(client, scope));
      };
      const { orgId, scanId, tool, entity, at } = scope;
      const encoding: TIngestEncoding = first !== null ? { kind: 'first-report', scope: { orgId, scanId, tool, entity, at } } : { kind: 'staging' };
      return {
        client,
        encoding,
        receipt: (orgId, scanToolId, key) => findReceipt(client, orgId, scanToolId, key),
        async toolStatus(orgId, scanToolId) {
          const { rows } = await client.query('SELECT status::text AS status FROM scan_tools WHERE org_id = $1::uuid AND id = $2::uuid', [orgId, scanToolId]);
          return rows[0]?.status ?? null;
        },
        ship(rows, events) {
          const shipped = inFlight.then(() => shipBatch(rows, events));
          inFlight = shipped.catch(() => undefined);
          return shipped;
        },
        async endStaging(tally) {
          await inFlight;
          return first !== null ? first.finish(tally) : counts;
        },
        // A first report has nothing older to find absent.
        markFixed: () => (first !== null ? Promise.resolve({ fixed: 0, outboxIds: [] }) : markAbsentFindingsFixed(client, scope)),
        finishTool: (orgId, scanId, tool, to, patch) => transitionTool(client, orgId, scanId, tool, to, patch),
        async saveReceipt(input) {
          await client.query(
            `INSERT INTO ingest_receipts (id, org_id, scan_tool_id, idempotency_key, body_sha256, result)
             VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6::jsonb)`,
            [uuidv7(), input.orgId, input.scanToolId, input.idempotencyKey, input.bodySha256, JSON.stringify(input.result)],
          );
        },
        async commit() {
          try {
            await client.query('COMMIT');
          } catch (error) {
            broken = true;
            throw error;
          } finally {
            release();
          }
        },
        async rollback() {
          if (!open) return;
          // A batch may still be in flight on this connection; let it settle before ROLLBACK.
          await inFlight;
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          } finally {
            release();
          }
        },
      };
    },

    /** A tool that ends without a report: its outcome in a transaction of its own. */
    async finishToolWithoutReport(
      orgId: string,
      scanId: string,
      tool: string,
      to: TToolStatus,
      error: { error_code: string; message: string } | null,
    ): Promise<TToolTransitionResult> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await transitionTool(client, orgId, scanId, tool, to, { error, at: new Date() });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },

    async scanStatus(orgId: string, scanId: string): Promise<TScanStatus | null> {
      const { rows } = await pool.query('SELECT status::text AS status FROM scans WHERE org_id = $1::uuid AND id = $2::uuid', [orgId, scanId]);
      return rows[0]?.status ?? null;
    },
  };
}

export type IngestRepo = ReturnType<typeof makeIngestRepo>;

async function findReceipt(sql: pg.Pool | pg.PoolClient, orgId: string, scanToolId: string, key: string): Promise<TIngestReceipt | null> {
  const { rows } = await sql.query(
    'SELECT body_sha256, result FROM ingest_receipts WHERE org_id = $1::uuid AND scan_tool_id = $2::uuid AND idempotency_key = $3',
    [orgId, scanToolId, key],
  );
  return rows[0] ? { bodySha256: rows[0].body_sha256, result: rows[0].result } : null;
}
