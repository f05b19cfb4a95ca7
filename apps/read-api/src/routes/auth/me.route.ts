import { meContract } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

interface TMeDeps {
  users: { byId(id: string): Promise<{ id: string; email: string; displayName: string; isPlatformAdmin: boolean } | null> };
  memberships: { listForUser(userId: string): Promise<{ role: string; organization: { id: string; name: string; slug: string } }[]> };
}

export const meRoute = ({ users, memberships }: TMeDeps) =>
  defineHandler(meContract, async (_input, ctx) => {
    const principal = ctx.principal!;
    if (principal.kind !== 'human') {
      return {
        status: 200,
        body: {
          principal: { kind: principal.kind, id: principal.id, email: null, display_name: null, is_platform_admin: false },
          memberships: [],
        },
      };
    }
    const user = await users.byId(principal.id);
    if (!user) throw new AppError('unauthenticated', { message: 'The token’s user no longer exists.' });
    const rows = await memberships.listForUser(user.id);
    return {
      status: 200,
      body: {
        principal: { kind: 'human', id: user.id, email: user.email, display_name: user.displayName, is_platform_admin: user.isPlatformAdmin },
        memberships: rows.map((row) => ({
          organization_id: row.organization.id,
          organization_name: row.organization.name,
          organization_slug: row.organization.slug,
          role: row.role,
        })),
      },
    };
  });
