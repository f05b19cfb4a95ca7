import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A real git repository in a temp directory, committed, for file:// scan targets. */
export function makeGitRepo(files: Record<string, string>): { url: string; dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'palisade-repo-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=test', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return { url: `file://${dir}`, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
