import { z } from 'zod';
import { boundedRecord, ZScanStatus, ZToolName, ZToolStatus } from '../../common/primitives';

const ZUrl = z
  .string()
  .max(2048)
  .regex(/^(https?|ssh|git|file):\/\//, 'an https://, http://, ssh://, git:// or file:// URL')
  .describe("The repository to clone; file:// URLs (the worker host's own disk) only where the deployment enables them (FILE_REPOSITORIES_ENABLED).");

/** Free-form key/value pairs of an `other` target. */
export const MAX_TARGET_ATTRIBUTES = 64;

export const ZTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('repository'), url: ZUrl, ref: z.string().min(1).max(255).optional() }).strict(),
  z.object({ kind: z.literal('image'), reference: z.string().min(1).max(1024) }).strict(),
  z.object({ kind: z.literal('kubernetes'), cluster_id: z.uuid() }).strict(),
  z.object({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/ }).max(2048) }).strict(),
  z.object({ kind: z.literal('sbom'), sbom_id: z.uuid() }).strict(),
  z
    .object({
      kind: z.literal('other'),
      name: z.string().min(1).max(256),
      attributes: boundedRecord(z.string().max(64), z.string().max(1024), MAX_TARGET_ATTRIBUTES).optional(),
    })
    .strict(),
]);
export type TTarget = z.infer<typeof ZTarget>;

/** Seconds a scan may run before its unfinished tools become timed_out (default one hour, at most a week). */
export const SCAN_DEADLINE_SECONDS = { min: 1, max: 7 * 24 * 3600, default: 3600 } as const;
/** A multi-target request fans out to at most this many scans. */
export const MAX_SCAN_TARGETS = 1000;
export const MAX_SCAN_TOOLS = 32;

export const ZToolError = z.object({ error_code: z.string().max(64), message: z.string().max(4096) }).strict();
export type TToolError = z.infer<typeof ZToolError>;

/** The per-(scan, tool) scanner credential, shown once (on the 201 of POST /scans, external tools only). */
export const ZToolCallback = z
  .object({ url: z.string().max(2048), token: z.string().max(256), expires_at: z.string() })
  .strict();
export type TToolCallback = z.infer<typeof ZToolCallback>;

export const ZToolOutcome = z
  .object({
    tool: ZToolName,
    status: ZToolStatus,
    queued_at: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    deadline_at: z.string().nullable(),
    findings_count: z.number().int(),
    error: ZToolError.nullable(),
    /** Only on the 201 of POST /scans, only for external tools: the per-(scan, tool) credential. */
    callback: ZToolCallback.optional(),
  })
  .strict();
export type TToolOutcome = z.infer<typeof ZToolOutcome>;

export const ZScan = z
  .object({
    scan_id: z.uuid(),
    status: ZScanStatus,
    target: ZTarget,
    /** `explicit`: the caller named the tools; `automatic`: the service chose them. */
    plan: z.enum(['automatic', 'explicit']),
    /**
     * Why these tools: for an automatic plan, what in the target (or its checkout) picked each;
     * null while an automatic plan for a repository waits for its checkout (tools is then empty).
     */
    plan_reason: z.string().max(500).nullable(),
    tools: z.array(ZToolOutcome),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    deadline_at: z.string().nullable(),
    scan_request_id: z.uuid().nullable(),
    findings_count: z.number().int(),
    sbom_available: z.boolean(),
  })
  .strict();
export type TScan = z.infer<typeof ZScan>;

export const ZScanIdParams = z.object({ scan_id: z.uuid() }).strict();
