import { isHumanOnly, PERMISSIONS, permissionRefusal, permissionsBeyond, ROLES, roleAllows } from './permissions';

describe('role permissions', () => {
  it('gives the owner every permission', () => {
    for (const permission of PERMISSIONS) expect(roleAllows('owner', permission)).toBe(true);
  });

  it('keeps viewers and auditors read-only', () => {
    expect(roleAllows('viewer', 'scans:create')).toBe(false);
    expect(roleAllows('auditor', 'findings:disposition')).toBe(false);
    expect(roleAllows('auditor', 'audit:read')).toBe(true);
  });

  it('reserves break-glass for owners and security admins', () => {
    const allowed = ROLES.filter((role) => roleAllows(role, 'gate:break_glass'));
    expect(allowed.sort()).toEqual(['owner', 'security_admin']);
  });

  it('names what a role carries beyond another one', () => {
    expect(permissionsBeyond('admin', 'security_admin')).toEqual(['gate:break_glass']);
    expect(permissionsBeyond('owner', 'security_admin')).toEqual([]);
    expect(permissionsBeyond('admin', 'viewer')).toEqual([]);
  });
});

describe('human-only permissions', () => {
  it('marks disposition and break-glass, and nothing else, as human-only', () => {
    expect(PERMISSIONS.filter(isHumanOnly).sort()).toEqual(['findings:disposition', 'gate:break_glass']);
  });

  it('refuses a credential a human-only permission even when its scopes name it', () => {
    const credential = { human: false as const, scopes: ['findings:disposition', 'gate:break_glass', 'scans:create'] };
    expect(permissionRefusal(credential, 'findings:disposition')).toBe('human_only');
    expect(permissionRefusal(credential, 'gate:break_glass')).toBe('human_only');
    expect(permissionRefusal(credential, 'scans:create')).toBeNull();
  });

  it('refuses a credential a permission missing from its scopes', () => {
    expect(permissionRefusal({ human: false, scopes: ['scans:read'] }, 'scans:create')).toBe('scope');
  });

  it('decides a person by role alone', () => {
    expect(permissionRefusal({ human: true, role: 'security_admin' }, 'gate:break_glass')).toBeNull();
    expect(permissionRefusal({ human: true, role: 'member' }, 'findings:disposition')).toBeNull();
    expect(permissionRefusal({ human: true, role: 'admin' }, 'gate:break_glass')).toBe('role');
    expect(permissionRefusal({ human: true, role: null }, 'org:read')).toBe('role');
  });
});
