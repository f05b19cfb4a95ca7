import type { TScan, TScanStatus } from '@palisade/contracts';
import type { PalisadeClient } from '@palisade/sdk';

/** Statuses a scan never leaves. */
export const FINAL_SCAN_STATUSES: ReadonlySet<TScanStatus> = new Set(['succeeded', 'partial', 'failed', 'cancelled']);

export interface TScanWaitOptions {
  api: Pick<PalisadeClient, 'getScan'>;
  scanId: string;
  timeoutMs: number;
  intervalMs: number;
  /** Told every state read, the first one included. */
  onProgress?(scan: TScan, elapsedMs: number): void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface TScanWaitResult {
  scan: TScan;
  timedOut: boolean;
  elapsedMs: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads the scan until it ends or `timeoutMs` passes; the last state read is the result either way. */
export async function waitForScan(options: TScanWaitOptions): Promise<TScanWaitResult> {
  const { api, scanId, sleep = realSleep, now = Date.now } = options;
  const started = now();
  const deadline = started + options.timeoutMs;
  for (;;) {
    const scan = await api.getScan(scanId);
    options.onProgress?.(scan, now() - started);
    if (FINAL_SCAN_STATUSES.has(scan.status)) return { scan, timedOut: false, elapsedMs: now() - started };
    const remaining = deadline - now();
    if (remaining <= 0) return { scan, timedOut: true, elapsedMs: now() - started };
    await sleep(Math.min(options.intervalMs, remaining));
  }
}

/**
 * How `scan --wait` exits: 0 succeeded, 1 failed or cancelled, 2 partial or still running
 * when the wait ran out, so a CI step can tell "findings incomplete" from "scan broken".
 */
export function scanExitCode(result: Pick<TScanWaitResult, 'scan' | 'timedOut'>): number {
  if (result.timedOut) return 2;
  switch (result.scan.status) {
    case 'succeeded':
      return 0;
    case 'partial':
      return 2;
    default:
      return 1;
  }
}
