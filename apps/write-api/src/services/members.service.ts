import { appendAuditEntry, makeMembershipRepo, makeUserRepo, type Db, type MembershipRole } from '@palisade/db';
import { AppError, assertMembershipChange, roleAllows, type TRole } from '@palisade/domain';

export interface TActor {
  userId: string;
  role: TRole;
  correlationId: string;
}

type TMemberRow = NonNullable<Awaited<ReturnType<ReturnType<typeof makeMembershipRepo>['member']>>>;

export function toMember(row: TMemberRow) {
  return { user_id: row.user.id, email: row.user.email, display_name: row.user.displayName, role: row.role, joined_at: row.createdAt.toISOString() };
}

/**
 * The actor's role as of the lock, not as of the request's access check: a concurrent change
 * may just have lowered it, and the grant rules must judge the role the actor still holds.
 */
async function lockedActorRole(memberships: ReturnType<typeof makeMembershipRepo>, orgId: string, actor: TActor): Promise<TRole> {
  const role = await memberships.role(orgId, actor.userId);
  if (!role) throw new AppError('not_a_member', { message: 'You are no longer a member of this organization.' });
  if (!roleAllows(role, 'members:manage')) throw new AppError('forbidden', { message: 'This action needs the members:manage permission.' });
  return role;
}

/**
 * Membership changes: each runs in one transaction with the organization's membership lock
 * (so two demotions cannot both see "another owner exists") and its audit row.
 */
export function makeMembersService({ db }: { db: Pick<Db, 'primary'> }) {
  async function change(orgId: string, actor: TActor, userId: string, nextRole: MembershipRole | null, action: string) {
    return db.primary.$transaction(async (tx) => {
      const memberships = makeMembershipRepo(tx);
      await memberships.lockOrganization(orgId);
      const current = await memberships.member(orgId, userId);
      if (!current) throw new AppError('not_found', { message: 'No such member in this organization.' });
      assertMembershipChange({
        actorUserId: actor.userId,
        actorRole: await lockedActorRole(memberships, orgId, actor),
        targetUserId: userId,
        currentRole: current.role,
        nextRole,
        ownerCount: await memberships.countOwners(orgId),
      });
      if (nextRole) await memberships.add(orgId, userId, nextRole);
      else await memberships.remove(orgId, userId);
      await appendAuditEntry(tx, orgId, {
        actorType: 'user',
        actorId: actor.userId,
        action,
        targetType: 'user',
        targetId: userId,
        data: { from: current.role, to: nextRole },
        correlationId: actor.correlationId,
      });
      return nextRole ? memberships.member(orgId, userId) : null;
    });
  }

  return {
    async add(orgId: string, actor: TActor, email: string, role: MembershipRole) {
      return db.primary.$transaction(async (tx) => {
        const user = await makeUserRepo(tx).byEmail(email);
        if (!user) throw new AppError('not_found', { message: 'No user with that email.', hint: 'The person must have an account before joining.' });
        const memberships = makeMembershipRepo(tx);
        await memberships.lockOrganization(orgId);
        if (await memberships.role(orgId, user.id)) {
          throw new AppError('conflict', { message: 'That user is already a member.', hint: 'Change the role with PUT /api/v2/organization/members/{user_id}.' });
        }
        assertMembershipChange({
          actorUserId: actor.userId,
          actorRole: await lockedActorRole(memberships, orgId, actor),
          targetUserId: user.id,
          currentRole: null,
          nextRole: role,
          ownerCount: await memberships.countOwners(orgId),
        });
        await memberships.add(orgId, user.id, role);
        await appendAuditEntry(tx, orgId, {
          actorType: 'user',
          actorId: actor.userId,
          action: 'membership.added',
          targetType: 'user',
          targetId: user.id,
          data: { role },
          correlationId: actor.correlationId,
        });
        return toMember((await memberships.member(orgId, user.id))!);
      });
    },
    async changeRole(orgId: string, actor: TActor, userId: string, role: MembershipRole) {
      return toMember((await change(orgId, actor, userId, role, 'membership.role_changed'))!);
    },
    async remove(orgId: string, actor: TActor, userId: string) {
      await change(orgId, actor, userId, null, 'membership.removed');
    },
  };
}
export type TMembersService = ReturnType<typeof makeMembersService>;
