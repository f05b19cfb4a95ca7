import { adminSetQuotaContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TOrganizationAdmin } from '../../services/organization-admin.service';

export const setQuotaRoute = ({ organizations }: { organizations: Pick<TOrganizationAdmin, 'setQuota'> }) =>
  defineHandler(adminSetQuotaContract, async ({ params, body }, ctx) => ({
    status: 200,
    body: await organizations.setQuota(
      params.org_id,
      { requestsPerMinute: body.requests_per_minute, burst: body.burst },
      { id: ctx.principal!.id, correlationId: ctx.correlationId },
    ),
  }));
