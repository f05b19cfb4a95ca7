import { listServiceAccountsContract, toServiceAccount } from '@palisade/contracts';
import type { ServiceAccountRepo } from '@palisade/db';
import { decodeCursor, encodeCursor } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

export const listServiceAccountsRoute = ({ serviceAccounts }: { serviceAccounts: Pick<ServiceAccountRepo, 'listActive'> }) =>
  defineHandler(listServiceAccountsContract, async ({ query }, ctx) => {
    const beforeId = query.cursor ? decodeCursor(query.cursor, {}).key : undefined;
    const rows = await serviceAccounts.listActive(ctx.tenant!.orgId, { beforeId, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    return {
      status: 200,
      body: { items: page.map(toServiceAccount), ...(more ? { next_cursor: encodeCursor({ key: page[page.length - 1].id }, {}) } : {}) },
    };
  });
