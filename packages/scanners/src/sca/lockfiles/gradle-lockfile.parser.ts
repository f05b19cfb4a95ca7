import type { TLockedPackage, TParsedLockfile } from './locked-package';

/**
 * gradle.lockfile (Gradle dependency locking): one "group:artifact:version=configurations" line
 * per resolved module, transitive ones included; "empty=..." lists configurations with nothing.
 * Names are Maven coordinates "group:artifact", as OSV's Maven ecosystem writes them. No edges.
 */
export function parseGradleLockfile(text: string): TParsedLockfile {
  const packages: TLockedPackage[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = /^([^#\s:=]+):([^\s:=]+):([^\s:=]+)=/.exec(raw.trim());
    if (!m) return;
    const name = `${m[1]}:${m[2]}`;
    packages.push({ key: `${name}@${m[3]}`, ecosystem: 'Maven', name, version: m[3], source: 'registry', deps: [], line: i + 1 });
  });
  return { packages, knowsDirect: false };
}
