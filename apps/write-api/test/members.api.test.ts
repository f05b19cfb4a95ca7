import request from 'supertest';
import { makeRepositories } from '@palisade/db';
import { addMember, createOrganization, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../src/app';

describe('organization members and roles', () => {
  let planes: TTestPlanes;
  let orgId: string;
  const tokens: Record<string, string> = {};
  const users: Record<string, { id: string; email: string }> = {};

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi });
    orgId = (await createOrganization(planes.db)).id;
    for (const role of ['owner', 'admin', 'viewer'] as const) {
      const user = await createUser(planes.db);
      await addMember(planes.db, orgId, user.id, role);
      users[role] = user;
      tokens[role] = (await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false })).token;
    }
  });
  afterAll(() => planes?.close());

  const as = (role: string) => ({ Authorization: `Bearer ${tokens[role]}`, 'X-Organization-ID': orgId });

  it('lists members for anyone in the organization', async () => {
    const res = await request(planes.app('read')).get('/api/v2/organization/members').set(as('viewer')).expect(200);
    expect(res.body.items.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'owner', 'viewer']);
  });

  it('lets an admin add a user and change a role, and audits both in the tenant chain', async () => {
    const newcomer = await createUser(planes.db);
    const added = await request(planes.app('write')).post('/api/v2/organization/members').set(as('admin')).send({ email: newcomer.email.toUpperCase(), role: 'member' }).expect(201);
    expect(added.body).toMatchObject({ user_id: newcomer.id, role: 'member' });
    await request(planes.app('write')).put(`/api/v2/organization/members/${newcomer.id}`).set(as('admin')).send({ role: 'auditor' }).expect(200);

    const audit = makeRepositories(planes.db.primary).audit;
    const actions = (await audit.list(orgId)).map((row) => [row.action, row.data]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['membership.added', { role: 'member' }],
        ['membership.role_changed', { from: 'member', to: 'auditor' }],
      ]),
    );
    await expect(audit.verifyAuditChain(orgId)).resolves.toMatchObject({ ok: true });
  });

  it('refuses a viewer, an admin touching the owner role, and the last owner leaving', async () => {
    const forbidden = await request(planes.app('write')).put(`/api/v2/organization/members/${users.admin.id}`).set(as('viewer')).send({ role: 'viewer' }).expect(403);
    expect(forbidden.body).toMatchObject({ error_code: 'forbidden', message: expect.stringContaining('members:manage') });
    await request(planes.app('write')).put(`/api/v2/organization/members/${users.viewer.id}`).set(as('admin')).send({ role: 'owner' }).expect(403);
    await request(planes.app('write')).put(`/api/v2/organization/members/${users.owner.id}`).set(as('admin')).send({ role: 'viewer' }).expect(403);
    const last = await request(planes.app('write')).delete(`/api/v2/organization/members/${users.owner.id}`).set(as('owner')).expect(409);
    expect(last.body).toMatchObject({ error_code: 'conflict', hint: expect.stringContaining('owner') });
  });

  it('refuses an admin granting security_admin, to itself or anyone, since it carries break-glass admins lack', async () => {
    const member = await createUser(planes.db);
    await addMember(planes.db, orgId, member.id, 'member');
    const toOther = await request(planes.app('write')).put(`/api/v2/organization/members/${member.id}`).set(as('admin')).send({ role: 'security_admin' }).expect(403);
    expect(toOther.body).toMatchObject({ error_code: 'forbidden', message: expect.stringContaining('gate:break_glass') });
    await request(planes.app('write')).put(`/api/v2/organization/members/${users.admin.id}`).set(as('admin')).send({ role: 'security_admin' }).expect(403);
    const newcomer = await createUser(planes.db);
    await request(planes.app('write')).post('/api/v2/organization/members').set(as('admin')).send({ email: newcomer.email, role: 'security_admin' }).expect(403);

    const roles = makeRepositories(planes.db.primary).memberships;
    await expect(roles.role(orgId, member.id)).resolves.toBe('member');
    await expect(roles.role(orgId, users.admin.id)).resolves.toBe('admin');
    await expect(roles.role(orgId, newcomer.id)).resolves.toBeNull();

    // An owner holds every permission, so it may grant the role.
    await request(planes.app('write')).put(`/api/v2/organization/members/${member.id}`).set(as('owner')).send({ role: 'security_admin' }).expect(200);
  });

  it('refuses anyone changing their own role, even downwards', async () => {
    const res = await request(planes.app('write')).put(`/api/v2/organization/members/${users.admin.id}`).set(as('admin')).send({ role: 'viewer' }).expect(403);
    expect(res.body).toMatchObject({ error_code: 'forbidden', message: expect.stringContaining('your own role') });
    await request(planes.app('write')).put(`/api/v2/organization/members/${users.owner.id}`).set(as('owner')).send({ role: 'admin' }).expect(403);
    await expect(makeRepositories(planes.db.primary).memberships.role(orgId, users.admin.id)).resolves.toBe('admin');
  });

  it('treats a member of another organization as not found and refuses bad input', async () => {
    const outsider = await createUser(planes.db);
    await addMember(planes.db, (await createOrganization(planes.db)).id, outsider.id, 'member');
    await request(planes.app('write')).put(`/api/v2/organization/members/${outsider.id}`).set(as('owner')).send({ role: 'viewer' }).expect(404);
    await request(planes.app('write')).delete(`/api/v2/organization/members/${outsider.id}`).set(as('owner')).expect(404);
    const bad = await request(planes.app('write')).put(`/api/v2/organization/members/${users.viewer.id}`).set(as('owner')).send({ role: 'emperor' }).expect(422);
    expect(bad.body.field).toBe('body.role');
    await request(planes.app('write')).put('/api/v2/organization/members/not-a-uuid').set(as('owner')).send({ role: 'viewer' }).expect(422);
    await request(planes.app('write')).post('/api/v2/organization/members').set(as('owner')).send({ email: 'nobody@nowhere.example', role: 'member' }).expect(404);
    await request(planes.app('write')).post('/api/v2/organization/members').set(as('owner')).send({ email: users.viewer.email, role: 'member' }).expect(409);
  });

  it('removes a member', async () => {
    const leaver = await createUser(planes.db);
    await addMember(planes.db, orgId, leaver.id, 'member');
    await request(planes.app('write')).delete(`/api/v2/organization/members/${leaver.id}`).set(as('owner')).expect(204);
    await expect(makeRepositories(planes.db.primary).memberships.role(orgId, leaver.id)).resolves.toBeNull();
  });
});
