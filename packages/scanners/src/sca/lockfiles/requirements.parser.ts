import type { TLockedPackage, TParsedLockfile } from './locked-package';

/**
 * requirements*.txt (pip). Only pinned requirements name a version: `name==1.2.3` or
 * `name===1.2.3`, with extras, environment markers and `--hash` options allowed. Ranges, URLs,
 * editable installs and `-r`/`-c` includes pin nothing here (an included requirements file is
 * scanned on its own when its name says so). Every requirement is a direct dependency.
 */
const PINNED = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*===?\s*([^\s;,\\]+)\s*(?:;.*)?$/;

/** The logical lines: continuations joined, comments and pip options dropped, with first line numbers. */
function logicalLines(text: string): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let buffer = '';
  let start = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (buffer === '') start = i + 1;
    // pip: a comment starts at "#" at line start or after whitespace.
    const uncommented = raw.replace(/(^|\s)#.*$/, '');
    if (/\\$/.test(uncommented)) {
      buffer += `${uncommented.slice(0, -1)} `;
      return;
    }
    out.push({ text: (buffer + uncommented).trim(), line: start });
    buffer = '';
  });
  if (buffer.trim() !== '') out.push({ text: buffer.trim(), line: start });
  return out;
}

export function parseRequirements(text: string): TParsedLockfile {
  const packages: TLockedPackage[] = [];
  const seen = new Set<string>();
  for (const { text: line, line: number } of logicalLines(text)) {
    if (line === '' || line.startsWith('-')) continue;
    const requirement = line.replace(/\s+--?[a-z][\w-]*(?:[=\s]\S+)?/gi, '').trim();
    const m = PINNED.exec(requirement);
    if (!m || m[2].includes('*')) continue;
    const key = `${m[1].toLowerCase()}@${m[2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    packages.push({ key, ecosystem: 'PyPI', name: m[1], version: m[2], source: 'registry', deps: [], direct: true, line: number });
  }
  return { packages, knowsDirect: true };
}
