import { verifyPassword } from '@palisade/domain/passwords';
import { addMember, createOrganization, createOrgWithMember, createUser } from './factories';
import { useTestDatabase } from './test-database';

describe('factories', () => {
  const t = useTestDatabase();

  it('make distinct organizations and users every time', async () => {
    const orgs = await Promise.all(Array.from({ length: 5 }, () => createOrganization(t.db)));
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(t.db)));
    expect(new Set(orgs.map((o) => o.slug)).size).toBe(5);
    expect(new Set(users.map((u) => u.email)).size).toBe(5);
  });

  it('store a password that verifies, and platform admins when asked', async () => {
    const user = await createUser(t.db, { password: 'hunter2-but-longer', isPlatformAdmin: true });
    expect(user.password).toBe('hunter2-but-longer');
    expect(user.isPlatformAdmin).toBe(true);
    await expect(verifyPassword('hunter2-but-longer', user.passwordHash!)).resolves.toBe(true);
  });

  it('accept the Db object, its primary client, or ids', async () => {
    const org = await createOrganization(t.prisma);
    const user = await createUser(t.db);
    await expect(addMember(t.db, org.id, user.id, 'viewer')).resolves.toMatchObject({ role: 'viewer' });
    const { org: other, user: owner } = await createOrgWithMember(t.db, 'owner');
    const row = await t.prisma.membership.findUnique({ where: { orgId_userId: { orgId: other.id, userId: owner.id } } });
    expect(row?.role).toBe('owner');
  });
});
