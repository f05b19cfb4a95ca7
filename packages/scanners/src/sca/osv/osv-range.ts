import type { TVersionOrder } from '../ecosystems';
import { compareSemver } from '../versions/semver-order';
import type { TOsvAffected, TOsvEvent, TOsvRange } from './osv-advisory';

export type TRangeMatch = { affected: boolean; /** The fix of the interval the version is in, if it has one. */ fixed?: string };

const EVENT_ORDER: Record<keyof TOsvEvent, number> = { introduced: 0, last_affected: 1, fixed: 2, limit: 3 };

function eventVersion(event: TOsvEvent): string {
  return (event.introduced ?? event.fixed ?? event.last_affected ?? event.limit) as string;
}

function eventKind(event: TOsvEvent): keyof TOsvEvent {
  return Object.keys(event)[0] as keyof TOsvEvent;
}

/**
 * OSV's evaluation of one range (https://ossf.github.io/osv-schema/#evaluation): walk the events
 * in version order ("0" before everything); `introduced` at or below the version opens an
 * affected interval, `fixed` at or below it closes it, `last_affected` below it closes it. Events
 * are sorted here because databases do not always write them in order. `limit` events bound the
 * whole range from above: a version at or past every limit is outside it.
 */
export function matchRange(version: string, range: TOsvRange, order: TVersionOrder): TRangeMatch {
  const compare = range.type === 'SEMVER' ? compareSemver : order;
  const sorted = [...range.events].sort((a, b) => {
    const va = eventVersion(a);
    const vb = eventVersion(b);
    const byVersion = va === '0' && a.introduced !== undefined ? -1 : vb === '0' && b.introduced !== undefined ? 1 : compare(va, vb);
    return byVersion !== 0 ? byVersion : EVENT_ORDER[eventKind(a)] - EVENT_ORDER[eventKind(b)];
  });
  let affected = false;
  let fixed: string | undefined;
  for (const event of sorted) {
    if (event.introduced !== undefined) {
      if (event.introduced === '0' || compare(version, event.introduced) >= 0) affected = true;
    } else if (event.fixed !== undefined) {
      if (compare(version, event.fixed) >= 0) affected = false;
      else if (affected && fixed === undefined) fixed = event.fixed;
    } else if (event.last_affected !== undefined) {
      if (compare(version, event.last_affected) > 0) affected = false;
    }
  }
  const limits = sorted.filter((e) => e.limit !== undefined).map((e) => e.limit as string);
  if (affected && limits.length > 0 && limits.every((limit) => compare(version, limit) >= 0)) affected = false;
  return affected ? { affected, ...(fixed !== undefined ? { fixed } : {}) } : { affected };
}

/**
 * Whether one `affected[]` entry covers a version: listed in `versions` (compared by the
 * ecosystem's order, so "1.0" meets "1.0.0" where the ecosystem says they are one), or inside
 * any of its ranges. The fixes are those of the intervals it falls in.
 */
export function matchAffected(version: string, affected: TOsvAffected, order: TVersionOrder): { fixed: string[] } | undefined {
  let hit = affected.versions.some((listed) => listed === version || order(listed, version) === 0);
  const fixed: string[] = [];
  for (const range of affected.ranges) {
    const m = matchRange(version, range, order);
    if (!m.affected) continue;
    hit = true;
    if (m.fixed !== undefined && !fixed.includes(m.fixed)) fixed.push(m.fixed);
  }
  return hit ? { fixed } : undefined;
}
