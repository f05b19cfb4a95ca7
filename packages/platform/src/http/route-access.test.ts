import type { Request } from 'express';
import { FORBIDDEN_HINTS, type TRouteContract } from '@palisade/contracts';
import type { TRole } from '@palisade/domain';
import type { TPrincipal, TPrincipalKind } from '../auth/principal';
import { resolveAccess, type TAccessDeps } from './route-access';

const ORG = '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f';

function route(overrides: Partial<TRouteContract>): TRouteContract {
  return {
    operationId: 'testRoute',
    method: 'POST',
    path: '/api/v2/test',
    plane: 'write',
    auth: 'tenant',
    summary: 'test',
    tags: [],
    request: {},
    responses: {},
    ...overrides,
  };
}

function requestWith(headers: Record<string, string>): Request {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name: string) => lower[name.toLowerCase()] } as unknown as Request;
}

/** Access deps that accept any bearer as the given principal, a member with `role` when human. */
function depsFor(principal: TPrincipal, role: TRole | null = null): TAccessDeps {
  return { authenticate: async () => principal, resolveMembership: async () => role };
}

function credential(kind: Exclude<TPrincipalKind, 'human'>, scopes: string[]): TPrincipal {
  return { kind, id: `${kind}-id`, isPlatformAdmin: false, orgId: ORG, scopes };
}

const human: TPrincipal = { kind: 'human', id: 'user-id', isPlatformAdmin: false };
const tenantRequest = requestWith({ Authorization: 'Bearer token', 'X-Organization-ID': ORG });

describe('route access', () => {
  describe('human-only permissions', () => {
    it.each(['pipeline', 'service_account', 'scanner'] as const)(
      'refuses a %s break-glass and disposition even when a stored scope names them, with a hint that a human must do it',
      async (kind) => {
        for (const permission of ['gate:break_glass', 'findings:disposition']) {
          const principal = credential(kind, ['gate:break_glass', 'findings:disposition']);
          await expect(resolveAccess(route({ permission }), tenantRequest, depsFor(principal))).rejects.toMatchObject({
            code: 'forbidden',
            status: 403,
            hint: FORBIDDEN_HINTS.human_only,
          });
        }
      },
    );

    it('lets a human whose role allows it use a human-only permission', async () => {
      const access = await resolveAccess(route({ permission: 'gate:break_glass' }), tenantRequest, depsFor(human, 'security_admin'));
      expect(access.tenant).toEqual({ orgId: ORG, role: 'security_admin' });
    });
  });

  describe('403 hints', () => {
    it('tells a member to ask for a role', async () => {
      await expect(resolveAccess(route({ permission: 'gate:break_glass' }), tenantRequest, depsFor(human, 'admin'))).rejects.toMatchObject({
        code: 'forbidden',
        hint: FORBIDDEN_HINTS.role,
      });
    });

    it('tells a pipeline to widen its trust policy’s scopes', async () => {
      const refused = resolveAccess(route({ permission: 'scans:read' }), tenantRequest, depsFor(credential('pipeline', ['scans:create'])));
      await expect(refused).rejects.toMatchObject({ code: 'forbidden', hint: expect.stringMatching(/trust policy/) });
    });

    it('tells a service account to widen its scopes', async () => {
      const refused = resolveAccess(
        route({ permission: 'scans:create' }),
        tenantRequest,
        depsFor(credential('service_account', ['scans:read'])),
      );
      await expect(refused).rejects.toMatchObject({ code: 'forbidden', hint: expect.stringMatching(/service account's scopes/) });
    });

    it('tells a caller of the admin plane that a platform administrator is needed', async () => {
      const refused = resolveAccess(
        route({ plane: 'admin', auth: 'platform_admin' }),
        requestWith({ Authorization: 'Bearer token' }),
        depsFor(human),
      );
      await expect(refused).rejects.toMatchObject({ code: 'forbidden', hint: expect.stringMatching(/platform administrator/) });
    });
  });

  it('lets a credential use a permission its scopes name', async () => {
    const access = await resolveAccess(
      route({ permission: 'scans:create' }),
      tenantRequest,
      depsFor(credential('pipeline', ['scans:create'])),
    );
    expect(access.tenant).toEqual({ orgId: ORG, role: null });
  });
});
