import type { Membership, MembershipRole, Organization } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TUserMembership = { organization: Organization; role: MembershipRole; createdAt: Date };

export function makeMembershipRepo(db: TDbClient) {
  return {
    /** Adds the user to the organization, or changes the role of an existing member. */
    add(orgId: string, userId: string, role: MembershipRole): Promise<Membership> {
      return db.membership.upsert({
        where: { orgId_userId: { orgId, userId } },
        create: { orgId, userId, role },
        update: { role },
      });
    },
    /** The user's role in the organization; null when not a member. */
    async role(orgId: string, userId: string): Promise<MembershipRole | null> {
      const row = await db.membership.findUnique({
        where: { orgId_userId: { orgId, userId } },
        select: { role: true },
      });
      return row?.role ?? null;
    },
    async remove(orgId: string, userId: string): Promise<boolean> {
      const { count } = await db.membership.deleteMany({ where: { orgId, userId } });
      return count > 0;
    },
    /** The organization's members with their user rows, oldest membership first. */
    listForOrg(orgId: string) {
      return db.membership.findMany({
        where: { orgId },
        include: { user: { select: { id: true, email: true, displayName: true } } },
        orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
      });
    },
    member(orgId: string, userId: string) {
      return db.membership.findUnique({
        where: { orgId_userId: { orgId, userId } },
        include: { user: { select: { id: true, email: true, displayName: true } } },
      });
    },
    countOwners(orgId: string): Promise<number> {
      return db.membership.count({ where: { orgId, role: 'owner' } });
    },
    /** Serializes membership changes of one organization until the transaction ends. */
    async lockOrganization(orgId: string): Promise<void> {
      await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('memberships'), hashtext(${orgId}))`;
    },
    /** Every organization the user belongs to, oldest membership first. */
    async listForUser(userId: string): Promise<TUserMembership[]> {
      const rows = await db.membership.findMany({
        where: { userId },
        include: { organization: true },
        orderBy: [{ createdAt: 'asc' }, { orgId: 'asc' }],
      });
      return rows.map((row) => ({ organization: row.organization, role: row.role, createdAt: row.createdAt }));
    },
  };
}

export type MembershipRepo = ReturnType<typeof makeMembershipRepo>;
