import { getCurrentOrganizationContract } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

interface TDeps {
  organizations: { byId(id: string): Promise<{ id: string; name: string; slug: string; createdAt: Date } | null> };
}

export const getCurrentOrganizationRoute = ({ organizations }: TDeps) =>
  defineHandler(getCurrentOrganizationContract, async (_input, ctx) => {
    const tenant = ctx.tenant!;
    const org = await organizations.byId(tenant.orgId);
    if (!org) throw new AppError('not_found', { message: 'No such organization.' });
    return {
      status: 200,
      body: { organization_id: org.id, name: org.name, slug: org.slug, role: tenant.role, created_at: org.createdAt.toISOString() },
    };
  });
