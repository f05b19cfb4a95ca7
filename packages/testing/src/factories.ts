// Fresh rows with random names, so tests never collide and never need cleanup.
import { randomBytes } from 'node:crypto';
import { hashPassword, type TScryptParams } from '@palisade/domain/passwords';
// Subpath imports: the helpers load only the modules they use, not every repository.
import type { Db } from '@palisade/db/client';
import type { Membership, MembershipRole, Organization, TDbClient, User } from '@palisade/db/prisma-types';
import { makeMembershipRepo } from '@palisade/db/repos/membership.repo';
import { makeOrganizationRepo } from '@palisade/db/repos/organization.repo';
import { makeUserRepo } from '@palisade/db/repos/user.repo';

/** A client, a transaction, or the whole Db from createDb (its primary is used). */
export type TFactoryDb = TDbClient | Db;

function clientOf(db: TFactoryDb): TDbClient {
  return 'primary' in db && 'close' in db ? db.primary : (db as TDbClient);
}

// verifyPassword reads the cost from the stored hash, so a cheap cost works everywhere and keeps
// suites that create many users fast.
const TEST_SCRYPT: TScryptParams = { N: 1024, r: 8, p: 1 };

export function randomSuffix(bytes = 6): string {
  return randomBytes(bytes).toString('hex');
}

export async function createOrganization(
  db: TFactoryDb,
  overrides: { slug?: string; name?: string } = {},
): Promise<Organization> {
  const suffix = randomSuffix();
  return makeOrganizationRepo(clientOf(db)).create({
    slug: overrides.slug ?? `org-${suffix}`,
    name: overrides.name ?? `Test Org ${suffix}`,
  });
}

export type TCreatedUser = User & { password: string };

export async function createUser(
  db: TFactoryDb,
  options: { password?: string; isPlatformAdmin?: boolean; email?: string; displayName?: string } = {},
): Promise<TCreatedUser> {
  const suffix = randomSuffix();
  const password = options.password ?? `pw-${randomSuffix(12)}`;
  const user = await makeUserRepo(clientOf(db)).create({
    email: options.email ?? `user-${suffix}@test.palisade.local`,
    displayName: options.displayName ?? `Test User ${suffix}`,
    passwordHash: await hashPassword(password, TEST_SCRYPT),
    isPlatformAdmin: options.isPlatformAdmin ?? false,
  });
  return { ...user, password };
}

export function addMember(
  db: TFactoryDb,
  org: Pick<Organization, 'id'> | string,
  user: Pick<User, 'id'> | string,
  role: MembershipRole,
): Promise<Membership> {
  const orgId = typeof org === 'string' ? org : org.id;
  const userId = typeof user === 'string' ? user : user.id;
  return makeMembershipRepo(clientOf(db)).add(orgId, userId, role);
}

/** An organization with one member of the given role: the usual start of an API test. */
export async function createOrgWithMember(
  db: TFactoryDb,
  role: MembershipRole = 'owner',
  userOptions: Parameters<typeof createUser>[1] = {},
): Promise<{ org: Organization; user: TCreatedUser }> {
  const [org, user] = await Promise.all([createOrganization(db), createUser(db, userOptions)]);
  await addMember(db, org, user, role);
  return { org, user };
}
