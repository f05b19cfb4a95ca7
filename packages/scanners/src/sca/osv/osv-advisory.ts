import type { TSeverity } from '@palisade/contracts';
import { ecosystemOf, type TEcosystem } from '../ecosystems';
import { asObject, asString, type TJson } from '../lockfiles/locked-package';
import { advisorySeverity } from './advisory-severity';

export type TOsvEvent = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };
export type TOsvRange = { type: 'SEMVER' | 'ECOSYSTEM'; events: TOsvEvent[] };

/** One `affected[]` entry for an ecosystem a lockfile here can yield. */
export type TOsvAffected = { ecosystem: TEcosystem; name: string; ranges: TOsvRange[]; versions: string[] };

export type TAdvisory = {
  id: string;
  aliases: string[];
  summary?: string;
  details?: string;
  severity: TSeverity;
  cwe: string[];
  affected: TOsvAffected[];
  /** Relative path of the file it was read from, for messages. */
  file: string;
};

const EVENT_KEYS = ['introduced', 'fixed', 'last_affected', 'limit'] as const;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

function readRange(value: unknown): TOsvRange | undefined {
  const range = asObject(value);
  const type = range?.type;
  // GIT ranges speak of commits, which a lockfile's version does not name.
  if (range === undefined || (type !== 'SEMVER' && type !== 'ECOSYSTEM')) return undefined;
  const events: TOsvEvent[] = [];
  for (const raw of Array.isArray(range.events) ? range.events : []) {
    const event = asObject(raw) ?? {};
    for (const key of EVENT_KEYS) {
      const version = asString(event[key]);
      if (version !== undefined) events.push({ [key]: version.trim() });
    }
  }
  return events.length > 0 ? { type, events } : undefined;
}

function readAffected(value: unknown): TOsvAffected | undefined {
  const entry = asObject(value);
  const pkg = asObject(entry?.package);
  const ecosystem = ecosystemOf(asString(pkg?.ecosystem) ?? '');
  const name = asString(pkg?.name);
  if (entry === undefined || ecosystem === undefined || name === undefined) return undefined;
  const ranges = (Array.isArray(entry.ranges) ? entry.ranges : []).map(readRange).filter((r): r is TOsvRange => r !== undefined);
  const versions = strings(entry.versions);
  return ranges.length > 0 || versions.length > 0 ? { ecosystem, name: name.trim(), ranges, versions } : undefined;
}

/**
 * An OSV record (https://ossf.github.io/osv-schema/) as the matcher needs it, or undefined for a
 * record that cannot match anything: not an object, no id, withdrawn, or no affected package in
 * an ecosystem read here. Tolerant of every field being of the wrong type: one bad record in a
 * database of thousands costs that record, never the scan.
 */
export function readOsvAdvisory(json: unknown, file: string): TAdvisory | undefined {
  const doc = asObject(json);
  const id = asString(doc?.id);
  if (doc === undefined || id === undefined || asString(doc.withdrawn) !== undefined) return undefined;
  const affected = (Array.isArray(doc.affected) ? doc.affected : []).map(readAffected).filter((a): a is TOsvAffected => a !== undefined);
  if (affected.length === 0) return undefined;
  const summary = asString(doc.summary)?.trim();
  const details = asString(doc.details)?.trim();
  return {
    id: id.trim(),
    aliases: strings(doc.aliases).map((a) => a.trim()),
    ...(summary ? { summary } : {}),
    ...(details ? { details } : {}),
    severity: advisorySeverity(doc),
    cwe: cweIds(doc),
    affected,
    file,
  };
}

/** CWE ids from GitHub's `database_specific.cwe_ids` (and the same field per affected entry). */
function cweIds(doc: TJson): string[] {
  const raw = [doc, ...(Array.isArray(doc.affected) ? doc.affected : [])].flatMap((o) => strings(asObject(asObject(o)?.database_specific)?.cwe_ids));
  return [...new Set(raw.map((c) => /^CWE-0*(\d+)$/i.exec(c.trim())).filter((m): m is RegExpExecArray => m !== null).map((m) => `CWE-${m[1]}`))];
}
