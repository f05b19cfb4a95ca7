import type { TFinding, TFindingDetail, TFindingHistoryEntry } from '@palisade/contracts';
import type { Finding, FindingHistory } from '@palisade/db';

/** Row → API shape (API.md "Finding"); the list and the detail share it. */
export function toFindingView(row: Finding): TFinding {
  return {
    finding_id: row.id,
    severity: row.severity,
    status: row.status,
    title: row.title,
    entity: { type: row.entityType, id: row.entityId, name: row.entityName },
    tool: row.tool,
    rule: { id: row.ruleId, name: row.ruleName, cwe: row.cwe, cve: row.cve },
    location: (row.location as TFinding['location']) ?? null,
    fingerprint: row.fingerprint,
    first_seen_at: row.firstSeenAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
  };
}

export function toFindingDetailView(row: Finding, history: FindingHistory[]): TFindingDetail {
  return {
    ...toFindingView(row),
    description: row.description,
    suppression: (row.suppression as TFindingDetail['suppression']) ?? null,
    first_seen_scan_id: row.firstSeenScanId,
    last_seen_scan_id: row.lastSeenScanId,
    evidence: row.evidence as TFindingDetail['evidence'],
    history: history.map(toHistoryEntry),
    // Human verdicts arrive with the disposition routes (a later issue); none can exist yet.
    dispositions: [],
  };
}

function toHistoryEntry(entry: FindingHistory): TFindingHistoryEntry {
  return {
    at: entry.at.toISOString(),
    from: entry.fromStatus,
    to: entry.toStatus,
    actor: { type: entry.actorType, id: entry.actorId },
    reason: entry.reason,
    scan_id: entry.scanId,
  };
}
