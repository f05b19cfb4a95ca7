import { AppError } from '../errors/app-error';
import { permissionsBeyond, type TRole } from './permissions';

export interface TMembershipChange {
  actorUserId: string;
  actorRole: TRole;
  targetUserId: string;
  /** The target's role now; null when they are being added. */
  currentRole: TRole | null;
  /** The role they get; null when they are being removed. */
  nextRole: TRole | null;
  ownerCount: number;
}

/**
 * Rules for changing who belongs to an organization:
 * - nobody changes their own role (a self-promotion, or a demotion that strands the organization,
 *   needs a second person); leaving is allowed, within the owner rule below;
 * - nobody grants a role carrying a permission they lack, nor changes or removes a member whose
 *   role carries one: otherwise an admin could mint a security_admin (break-glass) or unseat
 *   the people above it. Owners hold every permission, so they may grant every role;
 * - an organization always keeps at least one owner.
 */
export function assertMembershipChange(change: TMembershipChange): void {
  assertNotOwnRole(change);
  assertWithinOwnPermissions(change.actorRole, change.nextRole, 'grant');
  assertWithinOwnPermissions(change.actorRole, change.currentRole, 'change');
  assertOwnerRemains(change);
}

function assertNotOwnRole(change: TMembershipChange): void {
  const changesOwnRole = change.actorUserId === change.targetUserId && change.nextRole !== null && change.nextRole !== change.currentRole;
  if (changesOwnRole) {
    throw new AppError('forbidden', {
      message: 'You cannot change your own role.',
      hint: 'Ask another owner or administrator of the organization to change it.',
    });
  }
}

function assertWithinOwnPermissions(actorRole: TRole, role: TRole | null, verb: 'grant' | 'change'): void {
  if (!role) return;
  const beyond = permissionsBeyond(actorRole, role);
  if (beyond.length === 0) return;
  const what = verb === 'grant' ? `grant the ${role} role` : `change or remove a member with the ${role} role`;
  throw new AppError('forbidden', {
    message:
      role === 'owner'
        ? `Only an owner can ${what}.`
        : `Your role (${actorRole}) cannot ${what}: it carries ${beyond.join(', ')}, which your role lacks.`,
    hint: 'Ask an owner, or someone whose role holds every permission of that role.',
  });
}

function assertOwnerRemains(change: TMembershipChange): void {
  const losesOwner = change.currentRole === 'owner' && change.nextRole !== 'owner';
  if (losesOwner && change.ownerCount <= 1) {
    throw new AppError('conflict', {
      message: 'The organization must keep at least one owner.',
      hint: 'Make another member an owner first.',
    });
  }
}
