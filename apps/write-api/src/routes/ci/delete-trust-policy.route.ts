import { deleteTrustPolicyContract } from '@palisade/contracts';
import type { TrustPolicyRepo } from '@palisade/db';
import { AppError } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

export const deleteTrustPolicyRoute = ({ trustPolicies }: { trustPolicies: Pick<TrustPolicyRepo, 'remove'> }) =>
  defineHandler(deleteTrustPolicyContract, async ({ params }, ctx) => {
    const principal = ctx.principal!;
    const removed = await trustPolicies.remove(ctx.tenant!.orgId, params.trust_policy_id, {
      actorType: principal.kind,
      actorId: principal.id,
      correlationId: ctx.correlationId,
    });
    if (!removed) throw new AppError('not_found', { message: 'No such trust policy in this organization.' });
    return { status: 204 };
  });
