import { AppError } from '../errors/app-error';
import type { TRole } from './permissions';

/**
 * Rules for changing who belongs to an organization:
 * - only an owner may make someone an owner or change an owner's role (an admin cannot promote
 *   itself past its own rank, nor demote the people above it);
 * - an organization always keeps at least one owner.
 */
export function assertMembershipChange(change: {
  actorRole: TRole;
  currentRole: TRole | null;
  nextRole: TRole | null;
  ownerCount: number;
}): void {
  const touchesOwner = change.currentRole === 'owner' || change.nextRole === 'owner';
  if (touchesOwner && change.actorRole !== 'owner') {
    throw new AppError('forbidden', { message: 'Only an owner can grant or change the owner role.' });
  }
  const losesOwner = change.currentRole === 'owner' && change.nextRole !== 'owner';
  if (losesOwner && change.ownerCount <= 1) {
    throw new AppError('conflict', {
      message: 'The organization must keep at least one owner.',
      hint: 'Make another member an owner first.',
    });
  }
}
