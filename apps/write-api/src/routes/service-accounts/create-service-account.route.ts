import { createServiceAccountContract, toServiceAccount } from '@palisade/contracts';
import type { ServiceAccountRepo } from '@palisade/db';
import { generateServiceAccountToken, serviceAccountScopeProblems } from '@palisade/domain';
import { defineHandler, validationError } from '@palisade/platform';

export const createServiceAccountRoute = ({ serviceAccounts }: { serviceAccounts: Pick<ServiceAccountRepo, 'create'> }) =>
  defineHandler(createServiceAccountContract, async ({ body }, ctx) => {
    const problems = serviceAccountScopeProblems(body.scopes, ctx.tenant!.role);
    if (problems.length > 0) throw validationError(problems);
    const principal = ctx.principal!;
    const { token, tokenHash, tokenHint } = generateServiceAccountToken();
    const account = await serviceAccounts.create(
      ctx.tenant!.orgId,
      { name: body.name, scopes: [...new Set(body.scopes)], tokenHash, tokenHint },
      { actorType: principal.kind, actorId: principal.id, correlationId: ctx.correlationId },
    );
    return { status: 201, headers: { 'Cache-Control': 'no-store' }, body: { ...toServiceAccount(account), token } };
  });
