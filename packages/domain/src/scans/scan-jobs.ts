import { isBuiltinTool } from './scan-tools';

/** The jobs that start a freshly created scan: queue, payload, a deterministic job id and a delay. */
export type TScanStartJob =
  | { queue: 'scan-plan'; payload: { org_id: string; scan_id: string }; jobId: string }
  | { queue: 'scan-tool'; payload: { org_id: string; scan_id: string; tool: string }; jobId: string }
  | { queue: 'scan-deadline'; payload: { org_id: string; scan_id: string }; jobId: string; delayMs: number };

// BullMQ refuses ":" in custom job ids, hence "-".
export const scanJobIds = {
  plan: (scanId: string) => `scan-plan-${scanId}`,
  tool: (scanId: string, tool: string) => `scan-tool-${scanId}-${tool}`,
  deadline: (scanId: string) => `scan-deadline-${scanId}`,
  fanout: (scanRequestId: string) => `scan-fanout-${scanRequestId}`,
};

/**
 * What to enqueue once a scan's rows are committed: the deadline (a delayed job, no polling),
 * then either the plan step (automatic plan of a repository) or one job per built-in tool.
 */
export function scanStartJobs(scan: {
  orgId: string;
  scanId: string;
  deadlineAt: Date;
  planDeferred: boolean;
  tools: ReadonlyArray<{ tool: string; status: string }>;
  now?: Date;
}): TScanStartJob[] {
  const now = scan.now ?? new Date();
  const ids = { org_id: scan.orgId, scan_id: scan.scanId };
  const jobs: TScanStartJob[] = [
    { queue: 'scan-deadline', payload: ids, jobId: scanJobIds.deadline(scan.scanId), delayMs: Math.max(0, scan.deadlineAt.getTime() - now.getTime()) },
  ];
  if (scan.planDeferred) {
    jobs.push({ queue: 'scan-plan', payload: ids, jobId: scanJobIds.plan(scan.scanId) });
    return jobs;
  }
  for (const tool of scan.tools) {
    if (isBuiltinTool(tool.tool) && tool.status === 'queued') {
      jobs.push({ queue: 'scan-tool', payload: { ...ids, tool: tool.tool }, jobId: scanJobIds.tool(scan.scanId, tool.tool) });
    }
  }
  return jobs;
}
