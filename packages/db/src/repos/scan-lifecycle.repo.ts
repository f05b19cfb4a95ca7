/**
 * Writes scan and tool state changes, with their outbox rows and timeline events, inside the
 * caller's transaction. Every decision comes from the state machine in @palisade/domain
 * (planToolTransition, planScanClose); an illegal move throws AppError('invalid_state_transition')
 * before anything is written, and the caller's transaction rolls back.
 *
 *   const lifecycle = makeScanLifecycleRepo(tx);   // Prisma transaction or pg client in a transaction
 *   await lifecycle.transitionTool(orgId, scanId, 'semgrep', 'succeeded', { findingsCount: 12, reportComplete: true });
 *
 * The scan row is locked (SELECT … FOR UPDATE) first, so tools finishing at the same moment in
 * different processes are applied one after the other and exactly one of them finalizes the scan.
 */
import {
  AppError,
  assertScanTransition,
  isTerminalScan,
  planScanClose,
  planToolTransition,
  type TScanSnapshot,
} from '@palisade/domain';
import type { TScanStatus, TToolError, TToolStatus } from '@palisade/contracts';
import { appendOutboxRows, type TOutboxEvent } from './outbox.repo';
import { appendTimelineEvents, lockScanRequest, scanRequestProgress } from './scan-request.repo';
import { sqlExecutor, type TSqlExecutor, type TSqlSource } from './scan-sql';

export const SCAN_TOPIC = 'scan';
export const SCAN_REQUEST_TOPIC = 'scan_request';

export type TToolTransitionPatch = {
  error?: TToolError | null;
  /** Findings the tool's report produced; the scan's count becomes the sum over its tools. */
  findingsCount?: number;
  /** The report was a complete run (ingest uses it to mark absent findings fixed). */
  reportComplete?: boolean;
  at?: Date;
};

export type TToolTransitionResult = {
  tool: { tool: string; from: TToolStatus; to: TToolStatus };
  scan: { from: TScanStatus; to: TScanStatus } | null;
  scanRequestId: string | null;
  /** Outbox rows written; enqueue outbox-dispatch for them after commit (the sweeper catches misses). */
  outboxIds: string[];
};

type TLockedScan = TScanSnapshot & { id: string; scanRequestId: string | null; startedAt: Date | null };

async function lockScan(sql: TSqlExecutor, orgId: string, scanId: string): Promise<TLockedScan> {
  const { rows } = await sql.query<{ id: string; status: TScanStatus; scan_request_id: string | null; started_at: Date | null }>(
    'SELECT id::text AS id, status::text AS status, scan_request_id::text AS scan_request_id, started_at FROM scans WHERE org_id = $1::uuid AND id = $2::uuid FOR UPDATE',
    [orgId, scanId],
  );
  const scan = rows[0];
  if (!scan) throw new AppError('not_found', { message: 'No such scan.' });
  const tools = await sql.query<{ tool: string; status: TToolStatus }>(
    'SELECT tool, status::text AS status FROM scan_tools WHERE org_id = $1::uuid AND scan_id = $2::uuid ORDER BY created_at, id',
    [orgId, scanId],
  );
  return { id: scan.id, status: scan.status, scanRequestId: scan.scan_request_id, startedAt: scan.started_at, tools: tools.rows };
}

const isTerminalTool = (status: TToolStatus) => !['pending', 'queued', 'running'].includes(status);

async function writeTool(sql: TSqlExecutor, orgId: string, scanId: string, tool: string, to: TToolStatus, patch: TToolTransitionPatch, at: Date): Promise<void> {
  const sets = ['status = $4::tool_status', 'updated_at = $5::timestamptz'];
  const values: unknown[] = [orgId, scanId, tool, to, at];
  const add = (column: string, value: unknown, cast = '') => {
    values.push(value);
    sets.push(`${column} = $${values.length}${cast}`);
  };
  if (to === 'queued') add('queued_at', at, '::timestamptz');
  if (to === 'running') sets.push('started_at = COALESCE(started_at, $5::timestamptz)');
  if (isTerminalTool(to)) sets.push('finished_at = $5::timestamptz');
  if (patch.error !== undefined) add('error', patch.error === null ? null : JSON.stringify(patch.error), '::jsonb');
  if (patch.findingsCount !== undefined) add('findings_count', patch.findingsCount, '::int');
  if (patch.reportComplete !== undefined) add('report_complete', patch.reportComplete, '::boolean');
  await sql.query(`UPDATE scan_tools SET ${sets.join(', ')} WHERE org_id = $1::uuid AND scan_id = $2::uuid AND tool = $3`, values);
}

async function writeScanStatus(sql: TSqlExecutor, scan: TLockedScan, orgId: string, to: TScanStatus, at: Date): Promise<void> {
  const terminal = isTerminalScan(to);
  await sql.query(
    `UPDATE scans SET status = $3::scan_status, updated_at = $4::timestamptz,
       started_at = CASE WHEN $3::text = 'running' OR $5::boolean THEN COALESCE(started_at, $4::timestamptz) ELSE started_at END,
       finished_at = CASE WHEN $5::boolean THEN $4::timestamptz ELSE finished_at END
     WHERE org_id = $1::uuid AND id = $2::uuid`,
    [orgId, scan.id, to, at, terminal],
  );
}

async function afterScanChange(
  sql: TSqlExecutor,
  orgId: string,
  scan: TLockedScan,
  change: { from: TScanStatus; to: TScanStatus },
  at: Date,
  outbox: TOutboxEvent[],
): Promise<void> {
  await writeScanStatus(sql, scan, orgId, change.to, at);
  outbox.push({
    orgId,
    topic: SCAN_TOPIC,
    event: 'scan.status_changed',
    payload: { scan_id: scan.id, scan_request_id: scan.scanRequestId, from: change.from, to: change.to, at: at.toISOString() },
  });
  if (scan.scanRequestId) {
    await appendTimelineEvents(sql, orgId, scan.scanRequestId, [{ type: 'scan_status_changed', scanId: scan.id, from: change.from, to: change.to }]);
    if (isTerminalScan(change.to)) await maybeCompleteScanRequest(sql, orgId, scan.scanRequestId, at, outbox);
  }
}

/**
 * Ends a scan request once every target has a scan and every scan has ended: succeeded when all
 * scans succeeded, failed when none succeeded even partly, partial otherwise. Safe to call at
 * any time (it does nothing until then, and nothing after).
 */
export async function maybeCompleteScanRequest(source: TSqlSource, orgId: string, scanRequestId: string, at: Date, outbox?: TOutboxEvent[]): Promise<TScanStatus | null> {
  const sql = sqlExecutor(source);
  const request = await lockScanRequest(sql, orgId, scanRequestId);
  if (!request || isTerminalScan(request.status)) return null;
  const progress = await scanRequestProgress(sql, orgId, scanRequestId);
  if (progress.created < request.targetsTotal || progress.finished < progress.created) return null;
  const to: TScanStatus =
    progress.succeeded === request.targetsTotal ? 'succeeded' : progress.succeeded + progress.partial === 0 ? 'failed' : 'partial';
  await sql.query(
    'UPDATE scan_requests SET status = $3::scan_status, finished_at = $4::timestamptz, updated_at = $4::timestamptz WHERE org_id = $1::uuid AND id = $2::uuid',
    [orgId, scanRequestId, to, at],
  );
  await appendTimelineEvents(sql, orgId, scanRequestId, [{ type: 'completed', from: request.status, to }]);
  const events: TOutboxEvent[] = [
    { orgId, topic: SCAN_REQUEST_TOPIC, event: 'scan_request.status_changed', payload: { scan_request_id: scanRequestId, from: request.status, to, at: at.toISOString() } },
  ];
  if (outbox) outbox.push(...events);
  else await appendOutboxRows(sql, events);
  return to;
}

/** Moves one tool (and, as the state machine says, its scan); see the note at the top of the file. */
export async function transitionTool(
  source: TSqlSource,
  orgId: string,
  scanId: string,
  tool: string,
  to: TToolStatus,
  patch: TToolTransitionPatch = {},
): Promise<TToolTransitionResult> {
  const sql = sqlExecutor(source);
  const at = patch.at ?? new Date();
  const scan = await lockScan(sql, orgId, scanId);
  const plan = planToolTransition(scan, tool, to);
  await writeTool(sql, orgId, scanId, tool, to, patch, at);
  if (patch.findingsCount !== undefined) {
    await sql.query(
      'UPDATE scans SET findings_count = (SELECT COALESCE(sum(findings_count), 0)::int FROM scan_tools WHERE org_id = $1::uuid AND scan_id = $2::uuid) WHERE org_id = $1::uuid AND id = $2::uuid',
      [orgId, scanId],
    );
  }
  const outbox: TOutboxEvent[] = [
    {
      orgId,
      topic: SCAN_TOPIC,
      event: 'scan.tool.status_changed',
      payload: { scan_id: scanId, tool, from: plan.tool.from, to, error: patch.error ?? null, findings_count: patch.findingsCount ?? null, at: at.toISOString() },
    },
  ];
  if (plan.scan) await afterScanChange(sql, orgId, scan, plan.scan, at, outbox);
  const outboxIds = await appendOutboxRows(sql, outbox);
  return { tool: plan.tool, scan: plan.scan, scanRequestId: scan.scanRequestId, outboxIds };
}

export type TCloseScanResult = {
  tools: Array<{ tool: string; from: TToolStatus; to: TToolStatus }>;
  scan: { from: TScanStatus; to: TScanStatus };
  outboxIds: string[];
};

/**
 * Ends every unfinished tool with `to` (timed_out at the deadline, cancelled on cancel) and the
 * scan with the outcome that follows. Null when the scan had already ended.
 */
export async function closeScan(
  source: TSqlSource,
  orgId: string,
  scanId: string,
  to: 'timed_out' | 'cancelled',
  error: TToolError,
  at: Date = new Date(),
): Promise<TCloseScanResult | null> {
  const sql = sqlExecutor(source);
  const scan = await lockScan(sql, orgId, scanId);
  const plan = planScanClose(scan, to);
  if (!plan) return null;
  const outbox: TOutboxEvent[] = [];
  for (const change of plan.tools) {
    await writeTool(sql, orgId, scanId, change.tool, to, { error }, at);
    outbox.push({
      orgId,
      topic: SCAN_TOPIC,
      event: 'scan.tool.status_changed',
      payload: { scan_id: scanId, tool: change.tool, from: change.from, to, error, findings_count: null, at: at.toISOString() },
    });
  }
  await afterScanChange(sql, orgId, scan, plan.scan, at, outbox);
  const outboxIds = await appendOutboxRows(sql, outbox);
  return { tools: plan.tools, scan: plan.scan, outboxIds };
}

export type TCreatedScanInfo = {
  scanId: string;
  scanRequestId: string | null;
  target: unknown;
  plan: 'automatic' | 'explicit';
  planReason: string | null;
  entity: { type: string; id: string; name: string };
  tools: ReadonlyArray<{ tool: string; status: TToolStatus }>;
};

/** The outbox row (and, in a request, the timeline event) of a newly created scan. */
export async function recordScanCreated(source: TSqlSource, orgId: string, scan: TCreatedScanInfo, at: Date = new Date()): Promise<string[]> {
  const sql = sqlExecutor(source);
  if (scan.scanRequestId) {
    await appendTimelineEvents(sql, orgId, scan.scanRequestId, [{ type: 'scan_created', scanId: scan.scanId, target: scan.target }]);
  }
  return appendOutboxRows(sql, [
    {
      orgId,
      topic: SCAN_TOPIC,
      event: 'scan.created',
      payload: {
        scan_id: scan.scanId,
        scan_request_id: scan.scanRequestId,
        status: 'queued',
        plan: scan.plan,
        plan_reason: scan.planReason,
        entity: scan.entity,
        tools: scan.tools.map((tool) => ({ tool: tool.tool, status: tool.status })),
        at: at.toISOString(),
      },
    },
  ]);
}

/** The tools an automatic plan chose after the checkout (the scan had none until now). */
export async function recordScanPlanned(
  source: TSqlSource,
  orgId: string,
  scanId: string,
  plan: { tools: readonly string[]; reason: string },
  at: Date = new Date(),
): Promise<string[]> {
  return appendOutboxRows(sqlExecutor(source), [
    { orgId, topic: SCAN_TOPIC, event: 'scan.planned', payload: { scan_id: scanId, tools: [...plan.tools], plan_reason: plan.reason, at: at.toISOString() } },
  ]);
}

/**
 * Moves the scan itself, for the one case its tools cannot decide: an automatic plan that never
 * got tools (the checkout failed) ends the scan `failed`. Refused once the scan has tools.
 */
export async function failScanWithoutTools(source: TSqlSource, orgId: string, scanId: string, reason: string, at: Date = new Date()): Promise<string[]> {
  const sql = sqlExecutor(source);
  const scan = await lockScan(sql, orgId, scanId);
  if (scan.tools.length > 0) throw new AppError('invalid_state_transition', { message: 'The scan has tools; their outcomes decide its status.' });
  assertScanTransition(scan.status, 'failed');
  await sql.query('UPDATE scans SET plan_reason = $3 WHERE org_id = $1::uuid AND id = $2::uuid', [orgId, scanId, reason.slice(0, 500)]);
  const outbox: TOutboxEvent[] = [];
  await afterScanChange(sql, orgId, scan, { from: scan.status, to: 'failed' }, at, outbox);
  return appendOutboxRows(sql, outbox);
}

/** Locks the scan row for the rest of the transaction and returns its status and tools. */
export async function lockScanForUpdate(source: TSqlSource, orgId: string, scanId: string): Promise<TScanSnapshot & { scanRequestId: string | null }> {
  const scan = await lockScan(sqlExecutor(source), orgId, scanId);
  return { status: scan.status, tools: scan.tools, scanRequestId: scan.scanRequestId };
}

/** The lifecycle writers bound to one transaction. */
export function makeScanLifecycleRepo(source: TSqlSource) {
  return {
    transitionTool: (orgId: string, scanId: string, tool: string, to: TToolStatus, patch?: TToolTransitionPatch) =>
      transitionTool(source, orgId, scanId, tool, to, patch),
    closeScan: (orgId: string, scanId: string, to: 'timed_out' | 'cancelled', error: TToolError, at?: Date) => closeScan(source, orgId, scanId, to, error, at),
    recordScanCreated: (orgId: string, scan: TCreatedScanInfo, at?: Date) => recordScanCreated(source, orgId, scan, at),
    recordScanPlanned: (orgId: string, scanId: string, plan: { tools: readonly string[]; reason: string }, at?: Date) =>
      recordScanPlanned(source, orgId, scanId, plan, at),
    failScanWithoutTools: (orgId: string, scanId: string, reason: string, at?: Date) => failScanWithoutTools(source, orgId, scanId, reason, at),
    lockScan: (orgId: string, scanId: string) => lockScanForUpdate(source, orgId, scanId),
    maybeCompleteScanRequest: (orgId: string, scanRequestId: string, at: Date = new Date()) => maybeCompleteScanRequest(source, orgId, scanRequestId, at),
  };
}

export type ScanLifecycleRepo = ReturnType<typeof makeScanLifecycleRepo>;
