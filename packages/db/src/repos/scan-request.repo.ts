// Multi-target scan requests and their append-only timeline. Timeline rows are appended under
// the request's row lock with ids strictly increasing per request, so reading them in id order
// is reading them in the order the transitions happened, whichever process wrote them.
import type { Prisma, ScanRequest, ScanRequestEvent, ScanStatus } from '../generated/prisma/client';
import { uuidv7 } from '../ids';
import type { TDbClient } from '../prisma-types';
import { sqlExecutor, type TSqlSource } from './scan-sql';

export type TNewScanRequest = {
  orgId: string;
  targets: Prisma.InputJsonValue[];
  tools: string[];
  deadlineSeconds: number;
  createdByType?: string | null;
  createdById?: string | null;
  correlationId?: string | null;
};

export type TTimelineEvent = {
  type: string;
  scanId?: string | null;
  target?: unknown;
  from?: string | null;
  to?: string | null;
};

export type TScanRequestProgress = { created: number; queued: number; running: number; finished: number; failed: number; succeeded: number; partial: number; cancelled: number };

/** Locks the request row for the rest of the transaction; null when it does not exist in the org. */
export async function lockScanRequest(source: TSqlSource, orgId: string, scanRequestId: string): Promise<{ status: ScanStatus; targetsTotal: number } | null> {
  const { rows } = await sqlExecutor(source).query<{ status: ScanStatus; targets_total: number }>(
    'SELECT status::text AS status, targets_total FROM scan_requests WHERE org_id = $1::uuid AND id = $2::uuid FOR UPDATE',
    [orgId, scanRequestId],
  );
  return rows[0] ? { status: rows[0].status, targetsTotal: Number(rows[0].targets_total) } : null;
}

/** Appends timeline rows (taking the request's row lock first); returns their ids. */
export async function appendTimelineEvents(source: TSqlSource, orgId: string, scanRequestId: string, events: readonly TTimelineEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const sql = sqlExecutor(source);
  await lockScanRequest(sql, orgId, scanRequestId);
  const { rows } = await sql.query<{ id: string }>(
    'SELECT id::text AS id FROM scan_request_events WHERE org_id = $1::uuid AND scan_request_id = $2::uuid ORDER BY id DESC LIMIT 1',
    [orgId, scanRequestId],
  );
  let last = rows[0]?.id ?? null;
  const ids: string[] = [];
  const values: unknown[] = [];
  const tuples = events.map((event, i) => {
    last = idAfter(last);
    ids.push(last);
    values.push(last, orgId, scanRequestId, event.type, event.scanId ?? null, event.target === undefined ? null : JSON.stringify(event.target), event.from ?? null, event.to ?? null);
    const p = i * 8;
    return `($${p + 1}::uuid, $${p + 2}::uuid, $${p + 3}::uuid, $${p + 4}, $${p + 5}::uuid, $${p + 6}::jsonb, $${p + 7}, $${p + 8})`;
  });
  await sql.query(
    `INSERT INTO scan_request_events (id, org_id, scan_request_id, type, scan_id, target, from_status, to_status) VALUES ${tuples.join(', ')}`,
    values,
  );
  return ids;
}

/** Scan counts of a request by status, read in the caller's transaction. */
export async function scanRequestProgress(source: TSqlSource, orgId: string, scanRequestId: string): Promise<TScanRequestProgress> {
  const { rows } = await sqlExecutor(source).query<{ status: string; n: number }>(
    'SELECT status::text AS status, count(*)::int AS n FROM scans WHERE org_id = $1::uuid AND scan_request_id = $2::uuid GROUP BY status',
    [orgId, scanRequestId],
  );
  const by = new Map(rows.map((row) => [row.status, Number(row.n)]));
  const count = (...statuses: string[]) => statuses.reduce((sum, status) => sum + (by.get(status) ?? 0), 0);
  return {
    created: count('queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'),
    queued: count('queued'),
    running: count('running'),
    finished: count('succeeded', 'partial', 'failed', 'cancelled'),
    failed: count('failed'),
    succeeded: count('succeeded'),
    partial: count('partial'),
    cancelled: count('cancelled'),
  };
}

/**
 * A UUIDv7 greater than `last`: a fresh one when the clock has moved on, otherwise `last` plus
 * one in its random tail (two writers within the same millisecond, or a clock behind the
 * previous writer's).
 */
export function idAfter(last: string | null): string {
  const fresh = uuidv7();
  if (last === null || fresh > last) return fresh;
  const hex = last.replace(/-/g, '');
  const next = (BigInt(`0x${hex}`) + 1n).toString(16).padStart(32, '0');
  return `${next.slice(0, 8)}-${next.slice(8, 12)}-${next.slice(12, 16)}-${next.slice(16, 20)}-${next.slice(20)}`;
}

export function makeScanRequestRepo(db: TDbClient) {
  return {
    create(input: TNewScanRequest & { id?: string }): Promise<ScanRequest> {
      return db.scanRequest.create({
        data: {
          id: input.id ?? uuidv7(),
          orgId: input.orgId,
          status: 'queued',
          targets: input.targets,
          targetsTotal: input.targets.length,
          tools: input.tools,
          deadlineSeconds: input.deadlineSeconds,
          createdByType: input.createdByType ?? null,
          createdById: input.createdById ?? null,
          correlationId: input.correlationId ?? null,
        },
      });
    },
    byId(orgId: string, scanRequestId: string): Promise<ScanRequest | null> {
      return db.scanRequest.findUnique({ where: { orgId_id: { orgId, id: scanRequestId } } });
    },
    events(orgId: string, scanRequestId: string): Promise<ScanRequestEvent[]> {
      return db.scanRequestEvent.findMany({ where: { orgId, scanRequestId }, orderBy: { id: 'asc' } });
    },
    async setStatus(orgId: string, scanRequestId: string, status: ScanStatus, finishedAt: Date | null = null): Promise<void> {
      await db.scanRequest.updateMany({ where: { orgId, id: scanRequestId }, data: { status, finishedAt } });
    },
  };
}

export type ScanRequestRepo = ReturnType<typeof makeScanRequestRepo>;
