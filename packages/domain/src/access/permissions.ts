/**
 * Who may do what inside an organization. One matrix decides every tenant route: a route names
 * a permission in its contract row, and the platform asks `permissionRefusal` for the caller.
 * Humans hold a role; other principals (pipelines, service accounts, scanner callbacks) carry
 * explicit scopes instead, and never a permission the matrix marks human-only.
 */
export const ROLES = ['owner', 'admin', 'security_admin', 'member', 'viewer', 'auditor'] as const;
export type TRole = (typeof ROLES)[number];

export const PERMISSIONS = [
  'org:read',
  'org:manage',
  'members:manage',
  'scans:read',
  'scans:create',
  'findings:read',
  'findings:disposition',
  'gate:evaluate',
  'gate:break_glass',
  'integrations:read',
  'integrations:manage',
  'service_accounts:manage',
  'pipeline_trust:manage',
  'audit:read',
] as const;
export type TPermission = (typeof PERMISSIONS)[number];

/**
 * Who may exercise each permission. `human` marks a judgement a person must answer for
 * (accepting a finding's risk, overriding a failed gate): no stored scope, however it was
 * granted, lets automation do it. `satisfies` makes every new permission pick a side.
 */
export const PERMISSION_EXERCISED_BY = {
  'org:read': 'any',
  'org:manage': 'any',
  'members:manage': 'any',
  'scans:read': 'any',
  'scans:create': 'any',
  'findings:read': 'any',
  'findings:disposition': 'human',
  'gate:evaluate': 'any',
  'gate:break_glass': 'human',
  'integrations:read': 'any',
  'integrations:manage': 'any',
  'service_accounts:manage': 'any',
  'pipeline_trust:manage': 'any',
  'audit:read': 'any',
} as const satisfies Record<TPermission, 'any' | 'human'>;

const READ_ONLY: TPermission[] = ['org:read', 'scans:read', 'findings:read', 'integrations:read'];
const MEMBER: TPermission[] = [...READ_ONLY, 'scans:create', 'findings:disposition', 'gate:evaluate'];
const SECURITY_ADMIN: TPermission[] = [...MEMBER, 'gate:break_glass', 'integrations:manage', 'audit:read'];
const ADMIN: TPermission[] = [
  ...MEMBER,
  'org:manage',
  'members:manage',
  'integrations:manage',
  'service_accounts:manage',
  'pipeline_trust:manage',
  'audit:read',
];

export const ROLE_PERMISSIONS: Readonly<Record<TRole, ReadonlySet<TPermission>>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(ADMIN),
  security_admin: new Set(SECURITY_ADMIN),
  member: new Set(MEMBER),
  viewer: new Set(READ_ONLY),
  auditor: new Set<TPermission>([...READ_ONLY, 'audit:read']),
};

export function isRole(value: string): value is TRole {
  return (ROLES as readonly string[]).includes(value);
}

export function isPermission(value: string): value is TPermission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function roleAllows(role: TRole, permission: TPermission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export function isHumanOnly(permission: TPermission): boolean {
  return PERMISSION_EXERCISED_BY[permission] === 'human';
}

/** The permissions `role` carries that `holder` lacks: what granting `role` would hand out beyond one's own. */
export function permissionsBeyond(holder: TRole, role: TRole): TPermission[] {
  return [...ROLE_PERMISSIONS[role]].filter((permission) => !roleAllows(holder, permission));
}

/** The caller as the permission check sees it: a person with a role, or a credential with scopes. */
export type TPermissionHolder = { human: true; role: TRole | null } | { human: false; scopes: readonly string[] };

/**
 * Why the holder may not use the permission, or null when it may:
 * - `human_only`: a non-human credential asks for a human-only permission (its scopes do not matter);
 * - `role`: a person whose role lacks it (or who has no role here);
 * - `scope`: a credential whose scopes lack it.
 */
export function permissionRefusal(holder: TPermissionHolder, permission: TPermission): 'human_only' | 'role' | 'scope' | null {
  if (holder.human) return holder.role && roleAllows(holder.role, permission) ? null : 'role';
  if (isHumanOnly(permission)) return 'human_only';
  return holder.scopes.includes(permission) ? null : 'scope';
}
