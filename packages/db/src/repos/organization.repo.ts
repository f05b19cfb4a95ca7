import type { Organization } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TCreateOrganization = { slug: string; name: string; id?: string };

// Organizations are the tenants themselves, so lookups here are by the organization's own id.
export function makeOrganizationRepo(db: TDbClient) {
  return {
    create(input: TCreateOrganization): Promise<Organization> {
      return db.organization.create({ data: { id: input.id, slug: input.slug, name: input.name } });
    },
    byId(orgId: string): Promise<Organization | null> {
      return db.organization.findUnique({ where: { id: orgId } });
    },
    /** Cross-tenant listing for platform administrators: keyset pages in id (UUIDv7) order. */
    listPage(page: { afterId?: string; limit: number }): Promise<Organization[]> {
      return db.organization.findMany({
        where: page.afterId ? { id: { gt: page.afterId } } : {},
        orderBy: { id: 'asc' },
        take: page.limit,
      });
    },
    bySlug(slug: string): Promise<Organization | null> {
      return db.organization.findUnique({ where: { slug } });
    },
  };
}

export type OrganizationRepo = ReturnType<typeof makeOrganizationRepo>;
