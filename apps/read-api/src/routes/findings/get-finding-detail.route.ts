import { getFindingDetailContract } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import type { FindingRepo } from '@palisade/db';
import { defineHandler } from '@palisade/platform';
import { toFindingDetailView } from './finding-view';

interface TDeps {
  findings: Pick<FindingRepo, 'byId' | 'history'>;
}

export const getFindingDetailRoute = ({ findings }: TDeps) =>
  defineHandler(getFindingDetailContract, async ({ params }, ctx) => {
    const orgId = ctx.tenant!.orgId;
    const row = await findings.byId(orgId, params.id);
    if (!row) throw new AppError('not_found', { message: 'No such finding.' });
    const history = await findings.history(orgId, row.id);
    return { status: 200, body: toFindingDetailView(row, history) };
  });
