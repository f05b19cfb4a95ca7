import { listTrustPoliciesContract, toTrustPolicy } from '@palisade/contracts';
import type { TrustPolicyRepo } from '@palisade/db';
import { decodeCursor, encodeCursor } from '@palisade/domain';
import { defineHandler } from '@palisade/platform';

export const listTrustPoliciesRoute = ({ trustPolicies }: { trustPolicies: Pick<TrustPolicyRepo, 'list'> }) =>
  defineHandler(listTrustPoliciesContract, async ({ query }, ctx) => {
    const beforeId = query.cursor ? decodeCursor(query.cursor, {}).key : undefined;
    const rows = await trustPolicies.list(ctx.tenant!.orgId, { beforeId, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    return {
      status: 200,
      body: { items: page.map(toTrustPolicy), ...(more ? { next_cursor: encodeCursor({ key: page[page.length - 1].id }, {}) } : {}) },
    };
  });
