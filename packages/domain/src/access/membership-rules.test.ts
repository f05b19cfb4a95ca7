import { assertMembershipChange, type TMembershipChange } from './membership-rules';
import { ROLES } from './permissions';

const ACTOR = 'actor-user';
const OTHER = 'other-user';

function change(overrides: Partial<TMembershipChange>): TMembershipChange {
  return { actorUserId: ACTOR, actorRole: 'admin', targetUserId: OTHER, currentRole: 'member', nextRole: 'viewer', ownerCount: 1, ...overrides };
}

describe('membership changes', () => {
  it('lets an admin change a member to viewer', () => {
    expect(() => assertMembershipChange(change({}))).not.toThrow();
  });

  it('keeps the owner role for owners to grant', () => {
    expect(() => assertMembershipChange(change({ nextRole: 'owner' }))).toThrow(/Only an owner/);
    expect(() => assertMembershipChange(change({ currentRole: 'owner', nextRole: 'member', ownerCount: 2 }))).toThrow(/Only an owner/);
  });

  it('refuses an admin granting security_admin, which carries break-glass that admins lack', () => {
    expect(() => assertMembershipChange(change({ nextRole: 'security_admin' }))).toThrow(/gate:break_glass/);
    expect(() => assertMembershipChange(change({ currentRole: null, nextRole: 'security_admin' }))).toThrow(/gate:break_glass/);
  });

  it('refuses an admin changing or removing a security_admin, whose role carries more than its own', () => {
    expect(() => assertMembershipChange(change({ currentRole: 'security_admin', nextRole: 'viewer' }))).toThrow(/gate:break_glass/);
    expect(() => assertMembershipChange(change({ currentRole: 'security_admin', nextRole: null }))).toThrow(/gate:break_glass/);
  });

  it('lets an admin grant every role whose permissions it holds itself', () => {
    for (const role of ['admin', 'member', 'viewer', 'auditor'] as const) {
      expect(() => assertMembershipChange(change({ nextRole: role }))).not.toThrow();
    }
  });

  it('lets an owner grant every role', () => {
    for (const role of ROLES) expect(() => assertMembershipChange(change({ actorRole: 'owner', nextRole: role }))).not.toThrow();
  });

  it('refuses anyone changing their own role, owners included', () => {
    const self = { targetUserId: ACTOR };
    expect(() => assertMembershipChange(change({ ...self, actorRole: 'admin', currentRole: 'admin', nextRole: 'security_admin' }))).toThrow(/your own role/);
    expect(() => assertMembershipChange(change({ ...self, actorRole: 'admin', currentRole: 'admin', nextRole: 'viewer' }))).toThrow(/your own role/);
    expect(() => assertMembershipChange(change({ ...self, actorRole: 'owner', currentRole: 'owner', nextRole: 'admin', ownerCount: 3 }))).toThrow(/your own role/);
  });

  it('lets a member leave, but never leaves an organization without an owner', () => {
    expect(() => assertMembershipChange(change({ targetUserId: ACTOR, currentRole: 'admin', nextRole: null }))).not.toThrow();
    const lastOwnerLeaves = change({ actorRole: 'owner', targetUserId: ACTOR, currentRole: 'owner', nextRole: null, ownerCount: 1 });
    expect(() => assertMembershipChange(lastOwnerLeaves)).toThrow(/at least one owner/);
    expect(() => assertMembershipChange(change({ actorRole: 'owner', currentRole: 'owner', nextRole: 'admin', ownerCount: 1 }))).toThrow(/at least one owner/);
    expect(() => assertMembershipChange(change({ actorRole: 'owner', currentRole: 'owner', nextRole: 'admin', ownerCount: 2 }))).not.toThrow();
  });
});
