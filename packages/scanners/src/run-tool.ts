import { ZPalisadeReport, type TPalisadeReport } from '@palisade/contracts';
import type { TBuiltinTool } from '@palisade/domain/scans/scan-tools';
import { scanDirectoryForIac } from './iac/iac-scanner';
import { makeReport } from './report';
import { scanDirectoryForSecrets } from './secrets/secrets-scanner';

// Every tool name the worker runs itself rather than waiting for an external callback (API.md).
// Re-exported from the domain so that the API and the worker can never disagree on the list.
export { BUILTIN_TOOLS, isBuiltinTool, type TBuiltinTool } from '@palisade/domain/scans/scan-tools';

/** The subset this package can run on a checkout today. */
export const IMPLEMENTED_BUILTIN_TOOLS = ['secrets', 'iac'] as const satisfies readonly TBuiltinTool[];
export type TImplementedBuiltinTool = (typeof IMPLEMENTED_BUILTIN_TOOLS)[number];

export function isImplementedBuiltinTool(name: string): name is TImplementedBuiltinTool {
  return (IMPLEMENTED_BUILTIN_TOOLS as readonly string[]).includes(name);
}

export type TRunToolOptions = { signal?: AbortSignal };

/**
 * Runs a built-in tool over a checked-out directory and returns its report in Palisade's format,
 * ready to post to the callback plane. The report is validated here, so a scanner bug fails the
 * tool instead of sending the callback plane something it would reject.
 */
export async function runBuiltinTool(tool: TImplementedBuiltinTool, dir: string, options: TRunToolOptions = {}): Promise<TPalisadeReport> {
  switch (tool) {
    case 'secrets':
      return ZPalisadeReport.parse(makeReport('secrets', await scanDirectoryForSecrets(dir, options)));
    case 'iac':
      return ZPalisadeReport.parse(makeReport('iac', await scanDirectoryForIac(dir, options)));
    default:
      throw new Error(`built-in tool "${String(tool)}" is not implemented by @palisade/scanners`);
  }
}
