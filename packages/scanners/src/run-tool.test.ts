import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ZPalisadeReport } from '@palisade/contracts';
import { RUNNABLE_BUILTIN_TOOLS } from '@palisade/domain/scans/scan-tools';
import { BUILTIN_TOOLS, IMPLEMENTED_BUILTIN_TOOLS, isBuiltinTool, isImplementedBuiltinTool, runBuiltinTool } from './run-tool';

describe('runBuiltinTool', () => {
  it('returns reports that validate against ZPalisadeReport, empty for a clean directory', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-run-'));
    await writeFile(path.join(dir, 'README.md'), '# nothing to see\n');
    for (const tool of IMPLEMENTED_BUILTIN_TOOLS) {
      const { report, summary } = await runBuiltinTool(tool, dir);
      expect(ZPalisadeReport.parse(report)).toEqual(report);
      expect(summary).toEqual(expect.any(String));
      expect(report).toEqual({ format: 'palisade', version: 1, tool: { name: tool, version: expect.any(String) }, results: [] });
    }
  });

  it('refuses a tool it does not implement', async () => {
    await expect(runBuiltinTool('dast' as never, os.tmpdir())).rejects.toThrow(/not implemented/);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runBuiltinTool('secrets', os.tmpdir(), { signal: controller.signal })).rejects.toThrow();
  });
});

describe('tool names', () => {
  it('knows every built-in name and which of them run here', () => {
    expect([...BUILTIN_TOOLS]).toEqual(['secrets', 'sca', 'iac', 'image', 'kubernetes', 'dast']);
    expect([...IMPLEMENTED_BUILTIN_TOOLS]).toEqual(['secrets', 'sca', 'iac']);
    // The worker decides what to run from the domain's list; it must match what is implemented here.
    expect([...RUNNABLE_BUILTIN_TOOLS]).toEqual([...IMPLEMENTED_BUILTIN_TOOLS]);
    expect(isBuiltinTool('dast')).toBe(true);
    expect(isImplementedBuiltinTool('dast')).toBe(false);
    expect(isBuiltinTool('semgrep')).toBe(false);
  });
});
