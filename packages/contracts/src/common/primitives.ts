import { z } from 'zod';

export const ZUuid = z.uuid();
export const ZTimestamp = z.iso.datetime({ offset: true });

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const ZSeverity = z.enum(SEVERITIES);
export type TSeverity = z.infer<typeof ZSeverity>;

export const FINDING_STATUSES = ['open', 'confirmed', 'dismissed', 'risk_accepted', 'fix_pending_verification', 'fixed'] as const;
export const ZFindingStatus = z.enum(FINDING_STATUSES);
export type TFindingStatus = z.infer<typeof ZFindingStatus>;

export const SCAN_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'] as const;
export const ZScanStatus = z.enum(SCAN_STATUSES);
export type TScanStatus = z.infer<typeof ZScanStatus>;

export const TOOL_STATUSES = ['pending', 'queued', 'running', 'succeeded', 'failed', 'timed_out', 'skipped', 'cancelled'] as const;
export const ZToolStatus = z.enum(TOOL_STATUSES);
export type TToolStatus = z.infer<typeof ZToolStatus>;

export const TARGET_KINDS = ['repository', 'image', 'kubernetes', 'url', 'sbom', 'other'] as const;
export const ZTargetKind = z.enum(TARGET_KINDS);

export const ENTITY_TYPES = ['repository', 'image', 'workload', 'cluster', 'url', 'project_version', 'cloud_account'] as const;
export const ZEntityType = z.enum(ENTITY_TYPES);
export type TEntityType = z.infer<typeof ZEntityType>;

export const ZEntityRef = z
  .object({ type: ZEntityType, id: z.string().min(1).max(512), name: z.string().max(512) })
  .strict();
export type TEntityRef = z.infer<typeof ZEntityRef>;

/** Tool names: built-in ones or any external scanner name (API.md). */
export const ZToolName = z.string().max(64).regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'lower-case letters, digits, ".", "_" or "-", 1 to 64 characters');

/**
 * A map a client sends (`attributes`, `claims`): zod's record has no entry cap of its own, so one
 * is added here, and published as `maxProperties` for the OpenAPI document and for the test that
 * holds every request schema to its bounds. Keys and values are bounded by their own schemas.
 */
export function boundedRecord<K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V, maxEntries: number) {
  return z
    .record(key, value)
    .refine((record) => Object.keys(record).length <= maxEntries, { message: `at most ${maxEntries} entries` })
    .meta({ maxProperties: maxEntries });
}
