import { listFindingsContract } from '@palisade/contracts';
import { decodeCursor, encodeCursor } from '@palisade/domain';
import type { FindingRepo } from '@palisade/db';
import { defineHandler } from '@palisade/platform';
import { toFindingView } from './finding-view';

interface TDeps {
  findings: Pick<FindingRepo, 'listPage'>;
}

export const listFindingsRoute = ({ findings }: TDeps) =>
  defineHandler(listFindingsContract, async ({ query }, ctx) => {
    const { limit, cursor, ...filters } = query;
    // The cursor is bound to every filter (not to limit: a client may change its page size).
    const position = cursor === undefined ? undefined : decodeCursor(cursor, filters);
    const rows = await findings.listPage(
      ctx.tenant!.orgId,
      { scanId: filters.scan_id, severity: filters.severity, status: filters.status, entity: filters.entity, tool: filters.tool },
      { beforeId: position?.key, limit },
    );
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return {
      status: 200,
      body: {
        items: page.map(toFindingView),
        ...(more ? { next_cursor: encodeCursor({ key: page[page.length - 1].id }, filters) } : {}),
      },
    };
  });
