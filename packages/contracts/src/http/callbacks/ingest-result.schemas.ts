import { z } from 'zod';
import { ZScanStatus, ZToolName, ZToolStatus } from '../../common/primitives';

/** What ingesting one report did; a retry with the same Idempotency-Key gets the same body back. */
export const ZIngestResult = z
  .object({
    scan_id: z.uuid(),
    tool: ZToolName,
    /** The format the body was parsed as (sarif, cyclonedx, palisade, trivy, ...). */
    format: z.string().max(32),
    tool_status: ZToolStatus,
    scan_status: ZScanStatus,
    /** Results in the report, suppressed ones included. */
    results: z.number().int().min(0),
    findings: z
      .object({
        /** First seen in this report. */
        new: z.number().int().min(0),
        /** Known before; last_seen_at moved forward. */
        seen_again: z.number().int().min(0),
        /** Open findings of this entity and tool that this complete report no longer contains (0 for an incomplete one). */
        fixed: z.number().int().min(0),
        /** Stored dismissed because the report carries a suppression for them. */
        suppressed: z.number().int().min(0),
        /** Results that repeated a fingerprint already in this report (kept once). */
        duplicates: z.number().int().min(0),
      })
      .strict(),
    /**
     * False when the report says its tool's run did not complete (a SARIF invocation that was
     * not successful, a Semgrep error): its findings are stored, but findings it does not list
     * are not marked fixed. Absent from answers stored (for Idempotency-Key retries) by earlier versions.
     */
    report_complete: z.boolean().optional(),
    /** Why the report is incomplete; null when it is complete. */
    incomplete_reason: z.string().max(1024).nullable().optional(),
    idempotency_key: z.string().max(255).nullable(),
    ingested_at: z.string(),
  })
  .strict();
export type TIngestResult = z.infer<typeof ZIngestResult>;
