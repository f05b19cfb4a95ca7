import type { TScan, TScanStatus, TTarget, TToolError, TToolOutcome, TToolStatus } from '@palisade/contracts';

/** The stored shape the view is made from (the scans / scan_tools rows, camelCased). */
export interface TScanRecord {
  id: string;
  scanRequestId: string | null;
  target: unknown;
  plan: 'automatic' | 'explicit';
  planReason: string | null;
  status: TScanStatus;
  deadlineAt: Date | null;
  findingsCount: number;
  sbomAvailable: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  tools: TScanToolRecord[];
}

export interface TScanToolRecord {
  tool: string;
  status: TToolStatus;
  queuedAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  deadlineAt: Date | null;
  findingsCount: number;
  error: unknown;
  createdAt?: Date;
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** GET /scans/{id} and the 201 of POST /scans; `callbacks` adds the once-shown credentials. */
export function toScanView(scan: TScanRecord, callbacks?: ReadonlyMap<string, TToolOutcome['callback']>): TScan {
  return {
    scan_id: scan.id,
    status: scan.status,
    target: scan.target as TTarget,
    plan: scan.plan,
    plan_reason: scan.planReason,
    tools: scan.tools.map((tool) => ({
      tool: tool.tool,
      status: tool.status,
      queued_at: iso(tool.queuedAt),
      started_at: iso(tool.startedAt),
      finished_at: iso(tool.finishedAt),
      deadline_at: iso(tool.deadlineAt),
      findings_count: tool.findingsCount,
      error: (tool.error as TToolError | null) ?? null,
      ...(callbacks?.get(tool.tool) ? { callback: callbacks.get(tool.tool) } : {}),
    })),
    created_at: scan.createdAt.toISOString(),
    started_at: iso(scan.startedAt),
    finished_at: iso(scan.finishedAt),
    deadline_at: iso(scan.deadlineAt),
    scan_request_id: scan.scanRequestId,
    findings_count: scan.findingsCount,
    sbom_available: scan.sbomAvailable,
  };
}
