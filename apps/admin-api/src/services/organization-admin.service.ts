import { AppError, decodeCursor, encodeCursor } from '@palisade/domain';
import { DEFAULT_QUOTA } from '@palisade/platform';

interface TOrg {
  id: string;
  name: string;
  slug: string;
  createdAt: Date;
}
interface TQuotaRow {
  requestsPerMinute: number;
  burst: number;
}

export interface TOrganizationAdminDeps {
  organizations: { byId(id: string): Promise<TOrg | null>; listPage(page: { afterId?: string; limit: number }): Promise<TOrg[]> };
  orgQuotas: { byOrg(orgId: string): Promise<TQuotaRow | null>; set(orgId: string, limits: TQuotaRow): Promise<unknown> };
  audit: { append(orgId: string | null, entry: { actorType: string; actorId: string; action: string; targetType: string; targetId: string; data?: unknown; correlationId?: string }): Promise<unknown> };
}

export function makeOrganizationAdmin(deps: TOrganizationAdminDeps) {
  async function view(org: TOrg) {
    const quota = await deps.orgQuotas.byOrg(org.id);
    return {
      organization_id: org.id,
      name: org.name,
      slug: org.slug,
      created_at: org.createdAt.toISOString(),
      quota: {
        requests_per_minute: (quota ?? DEFAULT_QUOTA).requestsPerMinute,
        burst: (quota ?? DEFAULT_QUOTA).burst,
        source: quota ? ('custom' as const) : ('default' as const),
      },
    };
  }

  return {
    async list(query: { limit: number; cursor?: string }) {
      const afterId = query.cursor ? decodeCursor(query.cursor, {}).key : undefined;
      const rows = await deps.organizations.listPage({ afterId, limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const items = await Promise.all(page.map(view));
      return rows.length > query.limit ? { items, next_cursor: encodeCursor({ key: page[page.length - 1].id }, {}) } : { items };
    },

    async setQuota(orgId: string, limits: TQuotaRow, actor: { id: string; correlationId: string }) {
      const org = await deps.organizations.byId(orgId);
      if (!org) throw new AppError('not_found', { message: 'No such organization.' });
      await deps.orgQuotas.set(orgId, limits);
      // Recorded in the tenant's own chain: the organization's auditors see who changed its limits.
      await deps.audit.append(orgId, {
        actorType: 'platform_admin',
        actorId: actor.id,
        action: 'quota.updated',
        targetType: 'organization',
        targetId: orgId,
        data: { requests_per_minute: limits.requestsPerMinute, burst: limits.burst },
        correlationId: actor.correlationId,
      });
      return view(org);
    },
  };
}
export type TOrganizationAdmin = ReturnType<typeof makeOrganizationAdmin>;
