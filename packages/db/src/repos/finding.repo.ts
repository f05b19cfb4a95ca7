import type { EntityType, Finding, FindingHistory, FindingStatus, Prisma, Severity } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

/**
 * Findings, read side. Every query names the tenant first; a finding of another organization is
 * simply not found. Lists are keyset pages in id order, newest first (ids are UUIDv7). Scan and
 * severity have (org_id, filter, id) indexes; status has one for every status but open (the
 * bulk, read along the primary key); entity and tool filter the primary-key walk. The later
 * findings issue extends the filter set here rather than replacing it.
 */
export interface TFindingFilters {
  scanId?: string;
  severity?: readonly Severity[];
  status?: readonly FindingStatus[];
  entity?: { type: EntityType; id: string };
  tool?: string;
}

export interface TFindingPage {
  /** The id of the last row of the previous page (exclusive). */
  beforeId?: string;
  limit: number;
}

export function makeFindingRepo(db: TDbClient) {
  return {
    /** Up to `limit + 1` rows, so the caller can tell whether another page exists. */
    listPage(orgId: string, filters: TFindingFilters, page: TFindingPage): Promise<Finding[]> {
      const where: Prisma.FindingWhereInput = { orgId };
      // "Findings of a scan": the findings that scan saw last (a re-scan takes them over).
      if (filters.scanId) where.lastSeenScanId = filters.scanId;
      if (filters.severity?.length) where.severity = { in: [...filters.severity] };
      if (filters.status?.length) where.status = { in: [...filters.status] };
      if (filters.entity) {
        where.entityType = filters.entity.type;
        where.entityId = filters.entity.id;
      }
      if (filters.tool) where.tool = filters.tool;
      if (page.beforeId) where.id = { lt: page.beforeId };
      return db.finding.findMany({ where, orderBy: { id: 'desc' }, take: page.limit + 1 });
    },

    byId(orgId: string, id: string): Promise<Finding | null> {
      return db.finding.findUnique({ where: { orgId_id: { orgId, id } } });
    },

    /** Status history, oldest first. */
    history(orgId: string, findingId: string): Promise<FindingHistory[]> {
      return db.findingHistory.findMany({ where: { orgId, findingId }, orderBy: [{ at: 'asc' }, { id: 'asc' }], take: 1000 });
    },

    countByScan(orgId: string, scanId: string): Promise<number> {
      return db.finding.count({ where: { orgId, lastSeenScanId: scanId } });
    },
  };
}

export type FindingRepo = ReturnType<typeof makeFindingRepo>;
