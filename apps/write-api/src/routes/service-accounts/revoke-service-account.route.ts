import { revokeServiceAccountContract } from '@palisade/contracts';
import type { ServiceAccountRepo } from '@palisade/db';
import { AppError } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

export const revokeServiceAccountRoute = ({ serviceAccounts }: { serviceAccounts: Pick<ServiceAccountRepo, 'revoke'> }) =>
  defineHandler(revokeServiceAccountContract, async ({ params }, ctx) => {
    const principal = ctx.principal!;
    const revoked = await serviceAccounts.revoke(ctx.tenant!.orgId, params.service_account_id, {
      actorType: principal.kind,
      actorId: principal.id,
      correlationId: ctx.correlationId,
    });
    if (!revoked) throw new AppError('not_found', { message: 'No active service account with this id in this organization.' });
    return { status: 204 };
  });
