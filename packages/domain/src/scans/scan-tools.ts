import { createHash } from 'node:crypto';
import type { TEntityType, TTarget, TToolError } from '@palisade/contracts';

type TTargetKind = TTarget['kind'];

/**
 * Tools the worker runs itself. Any other valid tool name is an external scanner that reports
 * through its per-(scan, tool) callback credential.
 */
export const BUILTIN_TOOLS = ['secrets', 'sca', 'iac', 'image', 'kubernetes', 'dast'] as const;
export type TBuiltinTool = (typeof BUILTIN_TOOLS)[number];

/** The built-in tools this release can actually run on a checkout; the others end `skipped`. */
export const RUNNABLE_BUILTIN_TOOLS = ['secrets', 'sca', 'iac'] as const satisfies readonly TBuiltinTool[];
export type TRunnableBuiltinTool = (typeof RUNNABLE_BUILTIN_TOOLS)[number];

/**
 * The target kinds each runnable tool scans. All three read a repository checkout: there is no
 * image, cluster, URL or SBOM reader in the worker yet, so `sca` on an image is skipped too.
 */
const RUNNABLE_TARGETS: Readonly<Record<TRunnableBuiltinTool, readonly TTargetKind[]>> = {
  secrets: ['repository'],
  sca: ['repository'],
  iac: ['repository'],
};

export function isBuiltinTool(tool: string): tool is TBuiltinTool {
  return (BUILTIN_TOOLS as readonly string[]).includes(tool);
}

export function isRunnableBuiltinTool(tool: string): tool is TRunnableBuiltinTool {
  return (RUNNABLE_BUILTIN_TOOLS as readonly string[]).includes(tool);
}

/** What this deployment has that some built-in tools need. */
export type TToolCapabilities = {
  /** An OSV advisory database for sca (PALISADE_ADVISORY_DIR). */
  advisoryDatabase: boolean;
};

/**
 * Why a built-in tool cannot run on a target of this kind here, as the error its `skipped`
 * outcome carries; null when it can. sca without an advisory database is skipped rather than
 * run: a "succeeded" dependency scan with no findings would read as "no known vulnerabilities"
 * when nothing was checked.
 */
export function builtinToolSkipReason(tool: string, targetKind: TTargetKind, capabilities: TToolCapabilities): TToolError | null {
  if (!isRunnableBuiltinTool(tool)) {
    return { error_code: 'tool_not_available', message: `The built-in tool "${tool}" is not available in this deployment.` };
  }
  const kinds = RUNNABLE_TARGETS[tool];
  if (!kinds.includes(targetKind)) {
    return { error_code: 'target_not_supported', message: `The built-in tool "${tool}" scans ${kinds.join(' or ')} checkouts, not ${targetKind} targets.` };
  }
  if (tool === 'sca' && !capabilities.advisoryDatabase) {
    return {
      error_code: 'advisories_not_configured',
      message: 'The built-in tool "sca" has no advisory database in this deployment (PALISADE_ADVISORY_DIR is not set), so dependencies were not checked.',
    };
  }
  return null;
}

/** Path of a tool's report callback on the callback plane (joined to a base URL by the caller). */
export function toolCallbackPath(scanId: string, tool: string): string {
  return `/api/v2/callbacks/scans/${scanId}/tools/${encodeURIComponent(tool)}`;
}

export function toolCallbackUrl(baseUrl: string, scanId: string, tool: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${toolCallbackPath(scanId, tool)}`;
}

export interface TScanEntity {
  type: TEntityType;
  id: string;
  name: string;
}

/**
 * The entity a scan's findings are about. The id is stable across scans of the same thing
 * (credentials, `.git` and trailing slashes removed from repository URLs), so findings of a
 * later scan meet the ones of an earlier scan and can become `fixed`.
 */
export function scanEntity(target: TTarget): TScanEntity {
  switch (target.kind) {
    case 'repository': {
      const id = normalizeRepositoryUrl(target.url);
      const name = id.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*\/?/i, '').replace(/^\/+/, '') || id;
      return { type: 'repository', id: id.slice(0, 512), name: name.slice(-512) };
    }
    case 'image':
      return { type: 'image', id: target.reference.slice(0, 512), name: target.reference.slice(0, 512) };
    case 'kubernetes':
      return { type: 'cluster', id: target.cluster_id, name: target.cluster_id };
    case 'url':
      return { type: 'url', id: target.url.slice(0, 512), name: target.url.slice(0, 512) };
    case 'sbom':
      return { type: 'project_version', id: target.sbom_id, name: target.sbom_id };
    case 'other':
      return { type: 'project_version', id: target.name, name: target.name };
  }
}

export function normalizeRepositoryUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1')
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/]*)/i, (host) => host.toLowerCase())
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/**
 * The id of the scan a fan-out creates for target `index` of a request: a UUIDv7 whose time is
 * the request's and whose counter is the index, the rest a hash of both. The same request and
 * index always give the same id, so a re-run fan-out finds the scan instead of adding another,
 * and the scans of a request sort in target order.
 */
export function fanoutScanId(scanRequestId: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 0xfff) throw new RangeError('target index out of range');
  const hash = createHash('sha256').update(`${scanRequestId.toLowerCase()}\u0000${index}`).digest();
  const bytes = Buffer.alloc(16);
  Buffer.from(scanRequestId.replace(/-/g, '').slice(0, 12), 'hex').copy(bytes, 0);
  bytes[6] = 0x70 | (index >> 8);
  bytes[7] = index & 0xff;
  hash.copy(bytes, 8, 0, 8);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
