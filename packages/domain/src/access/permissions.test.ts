import { PERMISSIONS, ROLES, roleAllows } from './permissions';

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
});
