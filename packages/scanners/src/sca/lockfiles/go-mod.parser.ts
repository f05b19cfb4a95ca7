import { compareSemver } from '../versions/semver-order';
import type { TLockedPackage, TParsedLockfile } from './locked-package';

/**
 * go.mod: since Go 1.17 it lists every module in the build (minimal version selection writes
 * the selected version), the ones the module imports itself without `// indirect`. `replace`
 * directives are applied: a module replaced by another module at a version is that module; one
 * replaced by a local directory is not a registry release. go.mod keeps no edges, so a dependency
 * path is the module alone.
 */
export function parseGoMod(text: string): TParsedLockfile {
  const requires: Array<{ path: string; version: string; indirect: boolean; line: number }> = [];
  const replaces: Array<{ from: string; fromVersion?: string; to: string; toVersion?: string }> = [];
  let block: string | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const comment = raw.indexOf('//');
    const indirect = comment >= 0 && /^\/\/\s*indirect\b/.test(raw.slice(comment).trim());
    const line = (comment >= 0 ? raw.slice(0, comment) : raw).trim();
    if (line === '') return;
    if (block !== undefined && line === ')') {
      block = undefined;
      return;
    }
    let verb = block;
    let rest = line;
    if (verb === undefined) {
      const m = /^(\w+)\s*(.*)$/.exec(line);
      if (!m) return;
      if (m[2] === '(') {
        block = m[1];
        return;
      }
      [verb, rest] = [m[1], m[2]];
    }
    const words = rest.split(/\s+/).map(unquote);
    if (verb === 'require' && words.length >= 2) requires.push({ path: words[0], version: words[1], indirect, line: i + 1 });
    if (verb === 'replace') {
      const arrow = words.indexOf('=>');
      if (arrow < 1) return;
      replaces.push({ from: words[0], fromVersion: arrow === 2 ? words[1] : undefined, to: words[arrow + 1], toVersion: words[arrow + 2] });
    }
  });
  const packages: TLockedPackage[] = requires.map((req) => {
    const swap = replaces.find((r) => r.from === req.path && (r.fromVersion === undefined || r.fromVersion === req.version));
    const local = swap !== undefined && (swap.toVersion === undefined || /^(\.{1,2}\/|\/)/.test(swap.to));
    const name = swap && !local ? swap.to : req.path;
    const version = swap && !local ? (swap.toVersion as string) : req.version;
    return { key: `${name}@${version}`, ecosystem: 'Go', name, version, source: local ? 'path' : 'registry', deps: [], direct: !req.indirect, line: req.line };
  });
  return { packages, knowsDirect: true };
}

function unquote(word: string): string {
  return /^".*"$|^`.*`$/.test(word) ? word.slice(1, -1) : word;
}

/**
 * go.sum, read only where no go.mod stands beside it. It holds a hash for every module version
 * the go command ever consulted, older ones included; a module version whose code (not only its
 * go.mod) is hashed was downloaded for the build, and of those the highest per module is the one
 * minimal version selection picked.
 */
export function parseGoSum(text: string): TParsedLockfile {
  const best = new Map<string, { version: string; line: number }>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const [path, version] = raw.trim().split(/\s+/);
    if (!path || !version || version.endsWith('/go.mod')) return;
    const current = best.get(path);
    if (current === undefined || compareSemver(version, current.version) > 0) best.set(path, { version, line: i + 1 });
  });
  const packages: TLockedPackage[] = [...best].map(([name, { version, line }]) => ({ key: `${name}@${version}`, ecosystem: 'Go', name, version, source: 'registry', deps: [], line }));
  return { packages, knowsDirect: false };
}
