import type { TListFindingsQuery } from '@palisade/contracts';

/** GET /findings filters in their parsed shape (lists as arrays, entity as {type, id}); all optional. */
export type TFindingsQuery = Partial<TListFindingsQuery>;

/** The query string the contract parses back into TListFindingsQuery. */
export function findingsSearchParams(query: TFindingsQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.scan_id) params.scan_id = query.scan_id;
  if (query.severity?.length) params.severity = query.severity.join(',');
  if (query.status?.length) params.status = query.status.join(',');
  if (query.entity) params.entity = `${query.entity.type}:${query.entity.id}`;
  if (query.tool) params.tool = query.tool;
  if (query.limit !== undefined) params.limit = String(query.limit);
  if (query.cursor) params.cursor = query.cursor;
  return params;
}
