import { createTrustPolicyContract, toTrustPolicy } from '@palisade/contracts';
import type { TrustPolicyRepo } from '@palisade/db';
import { pipelinePolicyScopes, trustPolicyProblems } from '@palisade/domain';
import { defineHandler, validationError } from '@palisade/platform';

export const createTrustPolicyRoute = ({
  trustPolicies,
  allowLoopbackHttp,
}: {
  trustPolicies: Pick<TrustPolicyRepo, 'create'>;
  /** Plain-http loopback issuers (local test issuers) are refused in production. */
  allowLoopbackHttp: boolean;
}) =>
  defineHandler(createTrustPolicyContract, async ({ body }, ctx) => {
    const problems = trustPolicyProblems(body, { allowLoopbackHttp });
    if (problems.length > 0) throw validationError(problems);
    const principal = ctx.principal!;
    const policy = await trustPolicies.create(
      ctx.tenant!.orgId,
      {
        name: body.name,
        issuer: body.issuer,
        audience: body.audience,
        jwksUri: body.jwks_uri,
        subjectPattern: body.subject_pattern,
        claims: body.claims ?? {},
        scopes: pipelinePolicyScopes(body.scopes),
      },
      { actorType: principal.kind, actorId: principal.id, correlationId: ctx.correlationId },
    );
    return { status: 201, body: toTrustPolicy(policy) };
  });
