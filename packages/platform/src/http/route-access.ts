import type { Request } from 'express';
import { FORBIDDEN_HINTS, type TRouteContract } from '@palisade/contracts';
import { AppError, isPermission, permissionRefusal, type TPermission, type TPermissionHolder } from '@palisade/domain';
import type { TAuthenticate, TPrincipal, TResolveMembership, TTenant } from '../auth/principal';
import { validationError } from './error-body';

export interface TAccessDeps {
  authenticate: TAuthenticate;
  resolveMembership: TResolveMembership;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Establishes who calls and in which tenant, as the route's auth kind asks. Routes with their
 * own verification (callback credentials, provider webhooks) get nothing here: their handler
 * verifies before it trusts a byte.
 */
export async function resolveAccess(
  route: TRouteContract,
  req: Request,
  deps: TAccessDeps,
): Promise<{ principal?: TPrincipal; tenant?: TTenant }> {
  if (route.auth === 'public' || route.auth === 'callback' || route.auth === 'webhook') return {};

  const token = bearerToken(req);
  if (!token) {
    throw new AppError('unauthenticated', {
      message: req.get('authorization') ? 'The Authorization header is not a Bearer token.' : 'This route needs an access token.',
    });
  }
  const principal = await deps.authenticate(token);

  if (route.auth === 'principal') return { principal };
  if (route.auth === 'platform_admin') {
    if (!principal.isPlatformAdmin) {
      throw new AppError('forbidden', { message: 'This route is for platform administrators.', hint: FORBIDDEN_HINTS.platform_admin });
    }
    return { principal };
  }

  const orgId = req.get('x-organization-id');
  if (!orgId || !UUID.test(orgId)) {
    throw validationError([
      { field: 'headers.x-organization-id', issue: orgId ? 'must be an organization id (UUID)' : 'required on tenant-scoped routes' },
    ]);
  }
  const tenant = await resolveTenant(principal, orgId.toLowerCase(), deps);
  authorize(route, principal, tenant);
  return { principal, tenant };
}

async function resolveTenant(principal: TPrincipal, orgId: string, deps: TAccessDeps): Promise<TTenant> {
  // Credentials bound to one organization act only there; humans act where they are members.
  if (principal.orgId !== undefined) {
    if (principal.orgId !== orgId) throw new AppError('not_a_member', { message: 'This credential belongs to another organization.' });
    return { orgId, role: null };
  }
  const role = await deps.resolveMembership(principal, orgId);
  if (!role) throw new AppError('not_a_member', { message: 'You are not a member of this organization.' });
  return { orgId, role };
}

function authorize(route: TRouteContract, principal: TPrincipal, tenant: TTenant): void {
  const permission = route.permission;
  if (!permission) return;
  if (!isPermission(permission)) throw new Error(`route ${route.operationId} names unknown permission ${permission}`);
  const refusal = permissionRefusal(holderOf(principal, tenant), permission);
  if (refusal) throw forbidden(refusal, principal, permission);
}

function holderOf(principal: TPrincipal, tenant: TTenant): TPermissionHolder {
  return principal.kind === 'human' ? { human: true, role: tenant.role } : { human: false, scopes: principal.scopes ?? [] };
}

/** The 403 names who can lift it: a person, a role, or the credential's scopes. */
function forbidden(refusal: 'human_only' | 'role' | 'scope', principal: TPrincipal, permission: TPermission): AppError {
  if (refusal === 'human_only') {
    return new AppError('forbidden', { message: `The ${permission} permission is for humans only.`, hint: FORBIDDEN_HINTS.human_only });
  }
  return new AppError('forbidden', { message: `This action needs the ${permission} permission.`, hint: refusalHint(principal, refusal) });
}

function refusalHint(principal: TPrincipal, refusal: 'role' | 'scope'): string {
  if (refusal === 'role') return FORBIDDEN_HINTS.role;
  if (principal.kind === 'pipeline') return FORBIDDEN_HINTS.pipeline_scope;
  if (principal.kind === 'service_account') return FORBIDDEN_HINTS.service_account_scope;
  return FORBIDDEN_HINTS.scanner_scope;
}
