/**
 * The scan state machine: the one place that says which scan and tool transitions are legal
 * and what a scan's outcome is. Pure functions, no I/O.
 *
 * API for callers that finish a tool (callback ingest, worker, deadline job):
 *
 *   planToolTransition(scan: TScanSnapshot, tool: string, to: TToolStatus): TScanTransitionPlan
 *     - `scan` is the scan's current status and every tool's current status (read under a row lock).
 *     - throws AppError('not_found') when `tool` is not in the scan,
 *       AppError('invalid_state_transition') when the tool or the scan may not move (nothing is written);
 *     - returns { tool: {tool, from, to}, scan: {from, to} | null, tools } — `scan` is non-null when
 *       the scan's own status changes too (queued→running on the first start, or its final outcome
 *       once every tool is terminal). The caller writes both changes (plus outbox rows) in one
 *       transaction; `@palisade/db` `makeScanLifecycleRepo(tx).transitionTool(...)` does exactly that.
 *
 *   assertScanTransition(from, to) / assertToolTransition(from, to): throw on an illegal move.
 *   deriveScanOutcome(toolStatuses): 'succeeded' | 'partial' | 'failed'.
 */
import type { TScanStatus, TToolStatus } from '@palisade/contracts';
import { AppError } from '../errors/app-error';

type TScanState = TScanStatus;
type TToolState = TToolStatus;

// A tool that never started may be skipped; once running it can only end. External tools go
// straight from pending to their outcome: nobody tells us when they start.
const TOOL_TRANSITIONS: Readonly<Record<TToolState, readonly TToolState[]>> = {
  pending: ['queued', 'running', 'succeeded', 'failed', 'timed_out', 'skipped', 'cancelled'],
  queued: ['running', 'succeeded', 'failed', 'timed_out', 'skipped', 'cancelled'],
  running: ['succeeded', 'failed', 'timed_out', 'cancelled'],
  succeeded: [],
  failed: [],
  timed_out: [],
  skipped: [],
  cancelled: [],
};

// queued → an outcome directly happens when every tool ends without ever running (all skipped).
const SCAN_TRANSITIONS: Readonly<Record<TScanState, readonly TScanState[]>> = {
  queued: ['running', 'succeeded', 'partial', 'failed', 'cancelled'],
  running: ['succeeded', 'partial', 'failed', 'cancelled'],
  succeeded: [],
  partial: [],
  failed: [],
  cancelled: [],
};

export function canTransitionTool(from: TToolState, to: TToolState): boolean {
  return TOOL_TRANSITIONS[from].includes(to);
}

export function canTransitionScan(from: TScanState, to: TScanState): boolean {
  return SCAN_TRANSITIONS[from].includes(to);
}

export function assertToolTransition(from: TToolState, to: TToolState, tool = 'tool'): void {
  if (!canTransitionTool(from, to)) {
    throw new AppError('invalid_state_transition', { message: `The ${tool} outcome cannot move from ${from} to ${to}.` });
  }
}

export function assertScanTransition(from: TScanState, to: TScanState): void {
  if (!canTransitionScan(from, to)) {
    throw new AppError('invalid_state_transition', { message: `The scan cannot move from ${from} to ${to}.` });
  }
}

export function isTerminalTool(status: TToolState): boolean {
  return TOOL_TRANSITIONS[status].length === 0;
}

export function isTerminalScan(status: TScanState): boolean {
  return SCAN_TRANSITIONS[status].length === 0;
}

/** All tools succeeded → succeeded; none did → failed (also for a scan without tools); else partial. */
export function deriveScanOutcome(toolStatuses: readonly TToolState[]): 'succeeded' | 'partial' | 'failed' {
  const succeeded = toolStatuses.filter((status) => status === 'succeeded').length;
  if (succeeded === 0) return 'failed';
  return succeeded === toolStatuses.length ? 'succeeded' : 'partial';
}

/**
 * The scan status its tools imply, or the current one when they imply no change: the final
 * outcome once every tool is terminal, `running` once any tool has run (skipped ones never did).
 */
export function impliedScanStatus(current: TScanState, toolStatuses: readonly TToolState[]): TScanState {
  if (isTerminalScan(current)) return current;
  if (toolStatuses.length > 0 && toolStatuses.every(isTerminalTool)) return deriveScanOutcome(toolStatuses);
  // A skipped tool never ran, so it does not start the scan; a result (even a failure) means one did.
  if (current === 'queued' && toolStatuses.some((status) => status === 'running' || status === 'succeeded' || status === 'failed')) return 'running';
  return current;
}

export interface TScanSnapshot {
  status: TScanState;
  tools: ReadonlyArray<{ tool: string; status: TToolState }>;
}

export interface TScanTransitionPlan {
  tool: { tool: string; from: TToolState; to: TToolState };
  /** Set when the scan's status changes as a consequence. */
  scan: { from: TScanState; to: TScanState } | null;
  /** Every tool with its status after the change. */
  tools: Array<{ tool: string; status: TToolState }>;
}

/** Moves one tool and works out what that does to the scan; throws on an illegal move. */
export function planToolTransition(scan: TScanSnapshot, tool: string, to: TToolState): TScanTransitionPlan {
  const current = scan.tools.find((entry) => entry.tool === tool);
  if (!current) throw new AppError('not_found', { message: `The scan has no tool named ${tool}.` });
  if (isTerminalScan(scan.status)) {
    throw new AppError('invalid_state_transition', { message: `The scan has already ended (${scan.status}).` });
  }
  assertToolTransition(current.status, to, tool);
  const tools = scan.tools.map((entry) => ({ tool: entry.tool, status: entry.tool === tool ? to : entry.status }));
  const next = impliedScanStatus(scan.status, tools.map((entry) => entry.status));
  return {
    tool: { tool, from: current.status, to },
    scan: next === scan.status ? null : { from: scan.status, to: next },
    tools,
  };
}

/**
 * Ends every tool that has not ended with `to` (timed_out at the deadline, cancelled on cancel)
 * and the scan with the outcome that follows. Returns null when the scan already ended.
 */
export function planScanClose(
  scan: TScanSnapshot,
  to: 'timed_out' | 'cancelled',
): { tools: Array<{ tool: string; from: TToolState; to: TToolState }>; scan: { from: TScanState; to: TScanState } } | null {
  if (isTerminalScan(scan.status)) return null;
  const changed = scan.tools.filter((entry) => !isTerminalTool(entry.status)).map((entry) => ({ tool: entry.tool, from: entry.status, to }));
  const after = scan.tools.map((entry) => (isTerminalTool(entry.status) ? entry.status : to));
  const final: TScanState = to === 'cancelled' ? 'cancelled' : deriveScanOutcome(after);
  assertScanTransition(scan.status, final);
  return { tools: changed, scan: { from: scan.status, to: final } };
}
