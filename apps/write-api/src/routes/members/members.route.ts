import { addMemberContract, changeMemberRoleContract, removeMemberContract } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import { defineHandler, type TRequestContext } from '@palisade/platform';
import type { TActor, TMembersService } from '../../services/members.service';

/** Membership is a human matter: org-bound credentials (pipelines, service accounts) have no role here. */
function actorOf(ctx: TRequestContext): TActor {
  if (!ctx.tenant?.role || ctx.principal?.kind !== 'human') throw new AppError('forbidden', { message: 'Only a signed-in member can change memberships.' });
  return { userId: ctx.principal.id, role: ctx.tenant.role, correlationId: ctx.correlationId };
}

export const addMemberRoute = ({ members }: { members: Pick<TMembersService, 'add'> }) =>
  defineHandler(addMemberContract, async ({ body }, ctx) => ({
    status: 201,
    body: await members.add(ctx.tenant!.orgId, actorOf(ctx), body.email, body.role),
  }));

export const changeMemberRoleRoute = ({ members }: { members: Pick<TMembersService, 'changeRole'> }) =>
  defineHandler(changeMemberRoleContract, async ({ params, body }, ctx) => ({
    status: 200,
    body: await members.changeRole(ctx.tenant!.orgId, actorOf(ctx), params.user_id, body.role),
  }));

export const removeMemberRoute = ({ members }: { members: Pick<TMembersService, 'remove'> }) =>
  defineHandler(removeMemberContract, async ({ params }, ctx) => {
    await members.remove(ctx.tenant!.orgId, actorOf(ctx), params.user_id);
    return { status: 204 };
  });
