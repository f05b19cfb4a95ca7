import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error';

/**
 * Opaque keyset cursors (API.md "Lists"): the cursor carries the sort key of the last row
 * served and a digest of the filters it was issued for. Replayed with other filters it is
 * refused (422) instead of silently paging through a different result set. Not a secret: it
 * only names a position, and the tenant always comes from the request, never from the cursor.
 */
const VERSION = 1;

export interface TKeysetPosition {
  /** The last row's sort key, e.g. its UUIDv7 id. */
  key: string;
}

/** A stable digest of a query's filters: key order and undefined members do not matter. */
export function filterDigest(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .filter((name) => filters[name] !== undefined)
      .sort()
      .map((name) => [name, normalize(filters[name])]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return [...value].map(String).sort();
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
  }
  return value;
}

export function encodeCursor(position: TKeysetPosition, filters: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ v: VERSION, k: position.key, f: filterDigest(filters) }), 'utf8').toString('base64url');
}

/** Decodes a cursor for these filters; anything else is a 422 naming `query.cursor`. */
export function decodeCursor(cursor: string, filters: Record<string, unknown>): TKeysetPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw cursorError('is not a cursor this API issued');
  }
  const body = parsed as { v?: unknown; k?: unknown; f?: unknown };
  if (!body || typeof body !== 'object' || body.v !== VERSION || typeof body.k !== 'string' || typeof body.f !== 'string' || body.k.length > 256) {
    throw cursorError('is not a cursor this API issued');
  }
  if (body.f !== filterDigest(filters)) {
    throw cursorError('was issued for other filters; repeat the filters of the request that returned it');
  }
  return { key: body.k };
}

function cursorError(issue: string): AppError {
  return new AppError('validation_failed', {
    message: `The cursor ${issue}.`,
    errors: [{ field: 'query.cursor', issue }],
  });
}
