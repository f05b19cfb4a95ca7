import { ZPalisadeReport, type TPalisadeReport } from '@palisade/contracts';
import { RUNNABLE_BUILTIN_TOOLS, isRunnableBuiltinTool, type TRunnableBuiltinTool } from '@palisade/domain/scans/scan-tools';
import { scanDirectoryForIac } from './iac/iac-scanner';
import { makeReport, plural } from './report';
import { scanDirectoryForSca } from './sca/sca-scanner';
import { scanDirectoryForSecrets } from './secrets/secrets-scanner';

// Every tool name the worker runs itself rather than waiting for an external callback (API.md).
// Re-exported from the domain so that the API and the worker can never disagree on the list.
export { BUILTIN_TOOLS, isBuiltinTool, type TBuiltinTool } from '@palisade/domain/scans/scan-tools';

/** The subset this package runs on a checkout: the domain's list, which plans and skips decide by. */
export const IMPLEMENTED_BUILTIN_TOOLS = RUNNABLE_BUILTIN_TOOLS;
export type TImplementedBuiltinTool = TRunnableBuiltinTool;
export const isImplementedBuiltinTool: (name: string) => name is TImplementedBuiltinTool = isRunnableBuiltinTool;

export type TRunToolOptions = {
  signal?: AbortSignal;
  /** sca: a directory of OSV advisories (the worker's PALISADE_ADVISORY_DIR); unset, nothing is matched. */
  advisoryDir?: string;
};

export type TBuiltinToolRun = {
  /** Validated against ZPalisadeReport. */
  report: TPalisadeReport;
  /** What the tool did, for the worker's log and job result (e.g. sca: lockfiles read, whether advisories were matched). */
  summary: string;
};

/**
 * Runs a built-in tool over a checked-out directory and returns its report in Palisade's format,
 * ready to post to the callback plane. The report is validated here, so a scanner bug fails the
 * tool instead of sending the callback plane something it would reject.
 */
export async function runBuiltinTool(tool: TImplementedBuiltinTool, dir: string, options: TRunToolOptions = {}): Promise<TBuiltinToolRun> {
  switch (tool) {
    case 'secrets': {
      const results = await scanDirectoryForSecrets(dir, { signal: options.signal });
      return { report: ZPalisadeReport.parse(makeReport('secrets', results)), summary: `${plural(results.length, 'secret')} found.` };
    }
    case 'iac': {
      const results = await scanDirectoryForIac(dir, { signal: options.signal });
      return { report: ZPalisadeReport.parse(makeReport('iac', results)), summary: `${plural(results.length, 'misconfiguration')} found.` };
    }
    case 'sca': {
      const scan = await scanDirectoryForSca(dir, options);
      return { report: ZPalisadeReport.parse(makeReport('sca', scan.results)), summary: scan.summary };
    }
    default:
      throw new Error(`built-in tool "${String(tool)}" is not implemented by @palisade/scanners`);
  }
}
