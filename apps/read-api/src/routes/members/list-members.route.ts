import { listMembersContract } from '@palisade/contracts';
import type { MembershipRepo } from '@palisade/db';
import { defineHandler } from '@palisade/platform';

export const listMembersRoute = ({ memberships }: { memberships: Pick<MembershipRepo, 'listForOrg'> }) =>
  defineHandler(listMembersContract, async (_input, ctx) => {
    const rows = await memberships.listForOrg(ctx.tenant!.orgId);
    return {
      status: 200,
      body: {
        items: rows.map((row) => ({
          user_id: row.user.id,
          email: row.user.email,
          display_name: row.user.displayName,
          role: row.role,
          joined_at: row.createdAt.toISOString(),
        })),
      },
    };
  });
