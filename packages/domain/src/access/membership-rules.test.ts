import { assertMembershipChange } from './membership-rules';

describe('membership changes', () => {
  it('lets an admin change a member to viewer', () => {
    expect(() => assertMembershipChange({ actorRole: 'admin', currentRole: 'member', nextRole: 'viewer', ownerCount: 1 })).not.toThrow();
  });

  it('keeps the owner role for owners to grant', () => {
    expect(() => assertMembershipChange({ actorRole: 'admin', currentRole: 'member', nextRole: 'owner', ownerCount: 1 })).toThrow(/Only an owner/);
    expect(() => assertMembershipChange({ actorRole: 'admin', currentRole: 'owner', nextRole: 'member', ownerCount: 2 })).toThrow(/Only an owner/);
  });

  it('never leaves an organization without an owner', () => {
    expect(() => assertMembershipChange({ actorRole: 'owner', currentRole: 'owner', nextRole: 'admin', ownerCount: 1 })).toThrow(/at least one owner/);
    expect(() => assertMembershipChange({ actorRole: 'owner', currentRole: 'owner', nextRole: null, ownerCount: 1 })).toThrow(/at least one owner/);
    expect(() => assertMembershipChange({ actorRole: 'owner', currentRole: 'owner', nextRole: 'admin', ownerCount: 2 })).not.toThrow();
  });
});
