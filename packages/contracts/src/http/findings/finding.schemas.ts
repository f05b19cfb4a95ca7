import { z } from 'zod';
import { ZEntityRef, ZFindingStatus, ZSeverity, ZToolName } from '../../common/primitives';
import { ZEvidence } from '../../findings/evidence';

/** Where a finding points: a file position, a package, a logical place (resource, function). */
export const ZFindingLocationView = z
  .object({
    path: z.string().max(4096).optional(),
    start_line: z.number().int().optional(),
    end_line: z.number().int().optional(),
    start_column: z.number().int().optional(),
    end_column: z.number().int().optional(),
    package: z
      .object({
        name: z.string().max(512),
        version: z.string().max(256).optional(),
        purl: z.string().max(1024).optional(),
        ecosystem: z.string().max(64).optional(),
      })
      .strict()
      .optional(),
    logical: z.string().max(1024).optional(),
  })
  .strict();

export const ZFindingRule = z
  .object({ id: z.string().max(512), name: z.string().max(1000).nullable(), cwe: z.array(z.string()), cve: z.array(z.string()) })
  .strict();

/** A list item (API.md "Finding"). */
export const ZFinding = z
  .object({
    finding_id: z.uuid(),
    severity: ZSeverity,
    status: ZFindingStatus,
    title: z.string(),
    entity: ZEntityRef,
    tool: ZToolName,
    rule: ZFindingRule,
    location: ZFindingLocationView.nullable(),
    fingerprint: z.string(),
    first_seen_at: z.string(),
    last_seen_at: z.string(),
  })
  .strict();
export type TFinding = z.infer<typeof ZFinding>;

export const ZFindingHistoryEntry = z
  .object({
    at: z.string(),
    from: ZFindingStatus.nullable(),
    to: ZFindingStatus,
    actor: z.object({ type: z.string(), id: z.string().nullable() }).strict(),
    reason: z.string().nullable(),
    scan_id: z.uuid().nullable(),
  })
  .strict();
export type TFindingHistoryEntry = z.infer<typeof ZFindingHistoryEntry>;

/** A human verdict (the disposition routes arrive with a later issue; the detail already lists them). */
export const ZFindingDisposition = z
  .object({
    disposition_id: z.uuid(),
    reason_code: z.string(),
    verdict: z.enum(['confirmed', 'dismissed', 'risk_accepted']),
    comment: z.string(),
    expires_at: z.string().nullable(),
    created_by: z.object({ type: z.string(), id: z.string() }).strict(),
    created_at: z.string(),
  })
  .strict();

/** An in-report suppression the finding was stored dismissed for. */
export const ZFindingSuppressionView = z
  .object({ kind: z.string(), status: z.string().optional(), justification: z.string().optional() })
  .strict();

export const ZFindingDetail = ZFinding.extend({
  description: z.string().nullable(),
  suppression: ZFindingSuppressionView.nullable(),
  first_seen_scan_id: z.uuid().nullable(),
  last_seen_scan_id: z.uuid().nullable(),
  evidence: z.array(ZEvidence),
  history: z.array(ZFindingHistoryEntry),
  dispositions: z.array(ZFindingDisposition),
}).strict();
export type TFindingDetail = z.infer<typeof ZFindingDetail>;
