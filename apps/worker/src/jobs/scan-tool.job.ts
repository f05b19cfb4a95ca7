import type { TTarget, TToolError } from '@palisade/contracts';
import { makeScanRepo, transitionTool, type Prisma } from '@palisade/db';
import { builtinToolSkipReason, isTerminalScan, isTerminalTool, issueCallbackToken, toolCallbackUrl } from '@palisade/domain';
import type { TQueuePayload } from '@palisade/queue';
import { CheckoutError, isImplementedBuiltinTool, runBuiltinTool } from '@palisade/scanners';
import type { Job } from 'bullmq';
import { withCheckout } from './checkout-dir';
import { dispatchOutbox, type TScanToolJobDeps } from './scan-job-deps';

/** Ends a tool that has not ended yet; one that already has (deadline, ingest, another run) is left as it is. */
async function endTool(
  deps: Pick<TScanToolJobDeps, 'db' | 'queue' | 'log'>,
  orgId: string,
  scanId: string,
  tool: string,
  to: 'failed' | 'skipped',
  error: TToolError,
): Promise<boolean> {
  try {
    const result = await deps.db.primary.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, orgId, scanId, tool, to, { error }));
    await dispatchOutbox(deps, result.outboxIds);
    return true;
  } catch (err) {
    // The deadline (or an ingest) got there first: the tool already has its outcome.
    if ((err as { code?: string }).code !== 'invalid_state_transition') throw err;
    return false;
  }
}

const PERMANENT_CHECKOUT_ERRORS = new Set(['invalid_url', 'invalid_ref', 'ref_not_found']);

/** A refusal from the callback plane that a retry cannot change. */
class ReportRejected extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`callback plane refused the report: HTTP ${status} ${body.slice(0, 500)}`);
  }
}

/**
 * scan-tool: runs one built-in tool on a checkout and posts its Palisade-format report to the
 * callback plane with the tool's own credential, exactly as an external scanner would; the
 * callback plane ingests it and moves the tool to succeeded. The worker never writes findings.
 *
 * The credential issued at creation is replaced here (its hash rotated in the same transaction
 * that marks the tool running), so this run is the only holder of a valid one.
 */
export function makeScanToolJob(deps: TScanToolJobDeps) {
  const prisma = deps.db.primary;
  const post = deps.fetch ?? fetch;
  const finish = (orgId: string, scanId: string, tool: string, to: 'failed' | 'skipped', error: TToolError) => endTool(deps, orgId, scanId, tool, to, error);

  return async (payload: TQueuePayload<'scan-tool'>, job?: Pick<Job, 'attemptsMade' | 'opts'>): Promise<unknown> => {
    const { org_id: orgId, scan_id: scanId, tool } = payload;
    const scan = await makeScanRepo(prisma).byId(orgId, scanId);
    const row = scan?.tools.find((entry) => entry.tool === tool);
    if (!scan || !row || isTerminalScan(scan.status) || isTerminalTool(row.status)) return { skipped: true };
    const target = scan.target as TTarget;

    const skip = builtinToolSkipReason(tool, target.kind, { advisoryDatabase: Boolean(deps.advisoryDir) });
    if (skip !== null) {
      await finish(orgId, scanId, tool, 'skipped', skip);
      return { skipped: skip.error_code };
    }
    // No skip reason means a runnable tool on a repository checkout; this only tells the types.
    if (!isImplementedBuiltinTool(tool) || target.kind !== 'repository') throw new Error(`built-in tool "${tool}" passed the skip check but cannot run`);

    const credential = issueCallbackToken();
    const started = await prisma.$transaction(async (tx: Prisma.TransactionClient) => {
      const result = row.status === 'running' ? null : await transitionTool(tx, orgId, scanId, tool, 'running');
      await makeScanRepo(tx).rotateCallbackToken(orgId, scanId, tool, credential.hash);
      return result?.outboxIds ?? [];
    });
    await dispatchOutbox(deps, started);

    try {
      const { report, summary } = await withCheckout(deps, target, scan.deadlineAt, (dir) => runBuiltinTool(tool, dir, { advisoryDir: deps.advisoryDir }));
      const response = await post(toolCallbackUrl(deps.callbackBaseUrl, scanId, tool), {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${credential.token}`,
          'Content-Type': 'application/json',
          'X-Report-Format': 'palisade',
          // A retry after a lost response reads the stored result instead of ingesting twice.
          'Idempotency-Key': `builtin-${scanId}-${tool}`,
        },
        body: JSON.stringify(report),
      });
      const text = await response.text();
      if (response.ok) {
        deps.log.info({ scanId, tool, results: report.results.length, summary }, 'built-in tool report posted');
        return { posted: report.results.length, summary };
      }
      // Already reported (a previous attempt's post landed) or the scan ended meanwhile: nothing to do.
      if (response.status === 409) return { conflict: text.slice(0, 200) };
      if (response.status >= 400 && response.status < 500 && response.status !== 429) throw new ReportRejected(response.status, text);
      throw new Error(`callback plane answered HTTP ${response.status}`);
    } catch (error) {
      const last = !job || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const permanent = error instanceof ReportRejected || (error instanceof CheckoutError && PERMANENT_CHECKOUT_ERRORS.has(error.code));
      if (!permanent && !last) throw error;
      const code = error instanceof CheckoutError ? `checkout_${error.code}` : error instanceof ReportRejected ? 'report_rejected' : 'tool_failed';
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 4096);
      await finish(orgId, scanId, tool, 'failed', { error_code: code, message });
      deps.log.warn({ scanId, tool, err: message }, 'built-in tool failed');
      return { failed: code };
    }
  };
}

/**
 * A scan-tool job that will not run again without having ended its tool: the workers running it
 * died more often than BullMQ tolerates (it fails such a job without calling the handler), or its
 * last attempt could not record the failure. The tool ends failed now, with the reason, instead of
 * staying `running` until the scan deadline; a report that landed meanwhile stands.
 */
export function makeScanToolGiveUp(deps: Pick<TScanToolJobDeps, 'db' | 'queue' | 'log'>) {
  return async (payload: TQueuePayload<'scan-tool'>, error: Error): Promise<void> => {
    const { org_id: orgId, scan_id: scanId, tool } = payload;
    const scan = await makeScanRepo(deps.db.primary).byId(orgId, scanId);
    const row = scan?.tools.find((entry) => entry.tool === tool);
    if (!scan || !row || isTerminalScan(scan.status) || isTerminalTool(row.status)) return;
    const stalled = /stalled/i.test(error.message);
    const ended = await endTool(deps, orgId, scanId, tool, 'failed', {
      error_code: stalled ? 'worker_lost' : 'tool_failed',
      message: (stalled ? `The worker running the tool stopped and the job was given up: ${error.message}` : error.message).slice(0, 4096),
    });
    if (ended) deps.log.warn({ scanId, tool, err: error.message }, 'scan-tool job given up; tool failed');
  };
}
