import { addMember, createOrganization, createUser } from '@palisade/testing/factories';
import { useTestDatabase } from '@palisade/testing/test-database';
import { uuidv7 } from '../src/ids';
import { makeAuditLogRepo } from '../src/repos/audit-log.repo';
import { makeMembershipRepo } from '../src/repos/membership.repo';
import { makeOrganizationRepo } from '../src/repos/organization.repo';
import { makeRefreshTokenRepo } from '../src/repos/refresh-token.repo';
import { makeSigningKeyRepo } from '../src/repos/signing-key.repo';
import { makeUserRepo } from '../src/repos/user.repo';

describe('repositories', () => {
  const t = useTestDatabase();

  describe('tenant isolation', () => {
    it('a membership of one organization says nothing about another', async () => {
      const [a, b] = await Promise.all([createOrganization(t.db), createOrganization(t.db)]);
      const user = await createUser(t.db);
      await addMember(t.db, a, user, 'admin');
      const memberships = makeMembershipRepo(t.prisma);
      await expect(memberships.role(a.id, user.id)).resolves.toBe('admin');
      await expect(memberships.role(b.id, user.id)).resolves.toBeNull();
      await expect(memberships.remove(b.id, user.id)).resolves.toBe(false);
      await expect(memberships.role(a.id, user.id)).resolves.toBe('admin');
    });

    it('audit rows of one tenant are never listed or verified for another', async () => {
      const [a, b] = await Promise.all([createOrganization(t.db), createOrganization(t.db)]);
      const audit = makeAuditLogRepo(t.prisma);
      await audit.append(a.id, { actorType: 'user', action: 'a.only' });
      await audit.append(a.id, { actorType: 'user', action: 'a.only' });
      await audit.append(b.id, { actorType: 'user', action: 'b.only' });
      const listedForB = await audit.list(b.id);
      expect(listedForB.map((r) => r.action)).toEqual(['b.only']);
      expect(listedForB.every((r) => r.orgId === b.id)).toBe(true);
      await expect(audit.verifyAuditChain(b.id)).resolves.toEqual({ ok: true, rows: 1 });
    });

    it('the database refuses a child row that points at another tenant', async () => {
      const [a, b] = await Promise.all([createOrganization(t.db), createOrganization(t.db)]);
      const scan = await t.prisma.scan.create({
        data: {
          orgId: a.id,
          target: { kind: 'other', name: 'x' },
          targetKind: 'other',
          entityType: 'repository',
          entityId: 'x',
          entityName: 'x',
          plan: 'explicit',
        },
      });
      await expect(t.prisma.scanTool.create({ data: { orgId: b.id, scanId: scan.id, tool: 'sca' } })).rejects.toThrow();
      await expect(t.prisma.scanTool.create({ data: { orgId: a.id, scanId: scan.id, tool: 'sca' } })).resolves.toMatchObject({
        status: 'pending',
      });
    });
  });

  describe('organizations and users', () => {
    it('finds an organization by id and by slug, and refuses a duplicate slug', async () => {
      const organizations = makeOrganizationRepo(t.prisma);
      const org = await organizations.create({ slug: `acme-${uuidv7().slice(-8)}`, name: 'Acme' });
      await expect(organizations.byId(org.id)).resolves.toMatchObject({ slug: org.slug });
      await expect(organizations.bySlug(org.slug)).resolves.toMatchObject({ id: org.id });
      await expect(organizations.create({ slug: org.slug, name: 'Again' })).rejects.toMatchObject({ code: 'P2002' });
    });

    it('treats e-mail addresses case-insensitively', async () => {
      const users = makeUserRepo(t.prisma);
      const email = `Mixed.Case-${uuidv7().slice(-8)}@Example.COM`;
      const user = await users.create({ email, displayName: 'Mixed' });
      expect(user.email).toBe(email.toLowerCase());
      await expect(users.byEmail(email.toUpperCase())).resolves.toMatchObject({ id: user.id });
      await expect(users.create({ email: email.toUpperCase(), displayName: 'Dup' })).rejects.toMatchObject({ code: 'P2002' });
      // Even a write that bypasses the repository is stored lower-cased.
      await t.db.pool.query('UPDATE users SET email = $2 WHERE id = $1', [user.id, email]);
      await expect(users.byId(user.id)).resolves.toMatchObject({ email: email.toLowerCase() });
    });

    it('lists a user’s organizations with their roles', async () => {
      const user = await createUser(t.db);
      const [a, b] = [await createOrganization(t.db), await createOrganization(t.db)];
      await addMember(t.db, a, user, 'owner');
      await addMember(t.db, b, user, 'viewer');
      await addMember(t.db, b, user, 'auditor'); // a second add changes the role
      const rows = await makeMembershipRepo(t.prisma).listForUser(user.id);
      expect(rows.map((r) => [r.organization.id, r.role])).toEqual([
        [a.id, 'owner'],
        [b.id, 'auditor'],
      ]);
    });
  });

  describe('signing keys', () => {
    it('publishes active and retiring keys, signs with the newest active one', async () => {
      const keys = makeSigningKeyRepo(t.prisma);
      const key = (kid: string) => ({ kid, algorithm: 'RS256', publicKeyPem: `pem-${kid}`, privateKeyEncrypted: Buffer.from(`sealed-${kid}`) });
      const oldKid = `old-${uuidv7()}`;
      const newKid = `new-${uuidv7()}`;
      await keys.insert(key(oldKid));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await keys.insert(key(newKid));
      await expect(keys.active()).resolves.toMatchObject({ kid: newKid });
      const stored = await keys.byKid(oldKid);
      expect(Buffer.from(stored!.privateKeyEncrypted).toString()).toBe(`sealed-${oldKid}`);

      await expect(keys.markRetiring(oldKid, new Date(Date.now() - 1000))).resolves.toBe(true);
      await expect(keys.markRetiring(oldKid, new Date())).resolves.toBe(false); // already retiring
      expect((await keys.listPublishable()).map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
      await expect(keys.retireExpired()).resolves.toBeGreaterThanOrEqual(1);
      expect((await keys.listPublishable()).map((k) => k.kid)).not.toContain(oldKid);
      await expect(keys.byKid(oldKid)).resolves.toMatchObject({ status: 'retired' });
    });
  });

  describe('refresh tokens', () => {
    it('is used once; a second use loses, and revoking the family revokes every member', async () => {
      const user = await createUser(t.db);
      const tokens = makeRefreshTokenRepo(t.prisma);
      const familyId = uuidv7();
      const expiresAt = new Date(Date.now() + 60_000);
      const first = await tokens.issue({ userId: user.id, familyId, tokenHash: `h-${uuidv7()}`, expiresAt });
      const second = await tokens.issue({ userId: user.id, familyId, tokenHash: `h-${uuidv7()}`, expiresAt });
      await expect(tokens.findByHash(first.tokenHash)).resolves.toMatchObject({ id: first.id, usedAt: null });

      const race = await Promise.all([tokens.markUsed(first.id, second.id), tokens.markUsed(first.id, second.id)]);
      expect(race.sort()).toEqual([false, true]);
      await expect(tokens.findByHash(first.tokenHash)).resolves.toMatchObject({ replacedById: second.id });

      await expect(tokens.revokeFamily(familyId)).resolves.toBe(2);
      await expect(tokens.markUsed(second.id, null)).resolves.toBe(false);
      await expect(tokens.findByHash(second.tokenHash)).resolves.toMatchObject({ revokedAt: expect.any(Date) });
    });
  });
});
