/**
 * Who may do what inside an organization. One matrix decides every tenant route: a route names
 * a permission in its contract row, and the platform asks `roleAllows(role, permission)`.
 * Principal kinds other than humans carry explicit scopes instead of a role (pipelines,
 * service accounts), checked by `scopesAllow`.
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
