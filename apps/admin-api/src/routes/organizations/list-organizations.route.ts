import { adminListOrganizationsContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TOrganizationAdmin } from '../../services/organization-admin.service';

export const listOrganizationsRoute = ({ organizations }: { organizations: Pick<TOrganizationAdmin, 'list'> }) =>
  defineHandler(adminListOrganizationsContract, async ({ query }) => ({ status: 200, body: await organizations.list(query) }));
