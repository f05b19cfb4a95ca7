import { createHash } from 'node:crypto';
import request from 'supertest';
import { addMember, createOrgWithMember, createUser, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../src/app';

describe('scans: create and read (write and read planes in process)', () => {
  let planes: TTestPlanes;
  let orgId: string;
  let token: string;
  let otherToken: string;
  let otherOrgId: string;

  const issue = (userId: string) =>
    planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: userId, isPlatformAdmin: false }).then((t) => t.token);
  const post = (body: unknown, as = token, org = orgId) =>
    request(planes.app('write')).post('/api/v2/scans').set('Authorization', `Bearer ${as}`).set('X-Organization-ID', org).send(body as object);
  const get = (path: string, as = token, org = orgId) =>
    request(planes.app('read')).get(path).set('Authorization', `Bearer ${as}`).set('X-Organization-ID', org);

  beforeAll(async () => {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi }, { PUBLIC_BASE_URL: 'https://palisade.example.test' });
    const mine = await createOrgWithMember(planes.db, 'member');
    orgId = mine.org.id;
    token = await issue(mine.user.id);
    const other = await createOrgWithMember(planes.db, 'owner');
    otherOrgId = other.org.id;
    otherToken = await issue(other.user.id);
  });
  afterAll(() => planes?.close());

  it('creates a scan with explicit tools; only the external tool gets a callback credential, stored hashed', async () => {
    const res = await post({ target: { kind: 'repository', url: 'https://github.com/acme/api.git', ref: 'main' }, tools: ['secrets', 'semgrep'], deadline_seconds: 600 }).expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const scan = res.body;
    expect(scan).toMatchObject({ status: 'queued', plan: 'explicit', plan_reason: 'tools named in the request', scan_request_id: null, findings_count: 0, sbom_available: false });
    const [secrets, semgrep] = scan.tools;
    expect(secrets).toMatchObject({ tool: 'secrets', status: 'queued', queued_at: expect.any(String), error: null });
    expect(secrets.callback).toBeUndefined();
    expect(semgrep).toMatchObject({ tool: 'semgrep', status: 'pending', queued_at: null, deadline_at: scan.deadline_at });
    expect(semgrep.callback).toEqual({
      url: `https://palisade.example.test/api/v2/callbacks/scans/${scan.scan_id}/tools/semgrep`,
      token: expect.stringMatching(/^pscb_/),
      expires_at: scan.deadline_at,
    });
    expect(Date.parse(scan.deadline_at) - Date.parse(scan.created_at)).toBe(600_000);
    const row = await planes.db.primary.scanTool.findFirstOrThrow({ where: { scanId: scan.scan_id, tool: 'semgrep' } });
    expect(row.callbackTokenHash).toBe(createHash('sha256').update(semgrep.callback.token).digest('hex'));

    const read = await get(`/api/v2/scans/${scan.scan_id}`).expect(200);
    expect(read.body.tools[1].callback).toBeUndefined();
    expect(read.body).toMatchObject({ scan_id: scan.scan_id, status: 'queued', target: { kind: 'repository', url: 'https://github.com/acme/api.git', ref: 'main' } });
  });

  it('writes the scan.created outbox row in the same transaction as the scan', async () => {
    const res = await post({ target: { kind: 'image', reference: 'nginx:1.27' }, tools: ['trivy'] }).expect(201);
    const rows = await planes.db.primary.outbox.findMany({ where: { orgId, event: 'scan.created' } });
    expect(rows.map((row) => (row.payload as { scan_id: string }).scan_id)).toContain(res.body.scan_id);
  });

  it('uses the automatic plan for an image at once, recording which plan and why', async () => {
    const res = await post({ target: { kind: 'image', reference: 'ghcr.io/acme/api@sha256:' + 'a'.repeat(64) } }).expect(201);
    expect(res.body.plan).toBe('automatic');
    expect(res.body.tools.map((tool: { tool: string }) => tool.tool)).toEqual(['image', 'sca']);
    expect(res.body.plan_reason).toMatch(/image/);
  });

  it('defers the automatic plan of a repository to the worker’s checkout', async () => {
    const res = await post({ target: { kind: 'repository', url: 'https://git.example.test/acme/web.git' } }).expect(201);
    expect(res.body).toMatchObject({ plan: 'automatic', plan_reason: null, tools: [], status: 'queued' });
  });

  it('refuses file:// repositories, which would read the worker’s own disk, unless the deployment enables them', async () => {
    const counts = () => Promise.all([planes.db.primary.scan.count({ where: { orgId } }), planes.db.primary.scanRequest.count({ where: { orgId } })]);
    const before = await counts();
    const one = await post({ target: { kind: 'repository', url: 'file:///srv/palisade/checkouts/other-tenant' }, tools: ['secrets'] }).expect(422);
    expect(one.body).toMatchObject({
      error_code: 'validation_failed',
      errors: [{ field: 'body.target.url', issue: expect.stringContaining('file://') }],
    });
    const several = await post({
      targets: [
        { kind: 'repository', url: 'https://git.example.test/acme/web.git' },
        { kind: 'repository', url: 'file:///etc' },
        { kind: 'repository', url: 'file://localhost/home' },
      ],
      tools: ['secrets'],
    }).expect(422);
    expect(several.body.errors.map((e: { field: string }) => e.field)).toEqual(['body.targets[1].url', 'body.targets[2].url']);
    expect(await counts()).toEqual(before);

    // A local deployment (npm start, the tests) turns them on.
    const local = await startTestPlanes({ write: buildWriteApi }, { FILE_REPOSITORIES_ENABLED: 'true' });
    try {
      const member = await createOrgWithMember(local.db, 'member');
      const localToken = (await local.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: member.user.id, isPlatformAdmin: false })).token;
      const res = await request(local.app('write'))
        .post('/api/v2/scans')
        .set('Authorization', `Bearer ${localToken}`)
        .set('X-Organization-ID', member.org.id)
        .send({ target: { kind: 'repository', url: 'file:///nowhere/repo' } })
        .expect(201);
      expect(res.body).toMatchObject({ plan: 'automatic', target: { kind: 'repository', url: 'file:///nowhere/repo' } });
    } finally {
      await local.close();
    }
  });

  it('accepts several targets as a scan request (202) with a timeline', async () => {
    const res = await post({ targets: [{ kind: 'image', reference: 'a:1' }, { kind: 'image', reference: 'b:1' }], tools: ['image'] }).expect(202);
    expect(res.body).toEqual({ scan_request_id: expect.any(String), status: 'queued', targets_total: 2 });
    const timeline = await get(`/api/v2/scan-requests/${res.body.scan_request_id}/timeline`).expect(200);
    expect(timeline.body).toMatchObject({
      scan_request_id: res.body.scan_request_id,
      status: 'queued',
      progress: { total: 2, created: 0, queued: 0, running: 0, finished: 0, failed: 0 },
      events: [{ type: 'created', to: 'queued', at: expect.any(String) }],
    });
  });

  it('refuses invalid requests with a 422 naming the field', async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await post(body).expect(422);
      expect(res.body).toMatchObject({ error_code: 'validation_failed', field });
    };
    await bad({ target: { kind: 'image', reference: 'x' }, tools: ['Not A Tool'] }, 'body.tools.0');
    await bad({ target: { kind: 'image', reference: 'x' }, tools: ['secrets', 'secrets'] }, 'body.tools');
    await bad({ target: { kind: 'image', reference: 'x' }, deadline_seconds: 0 }, 'body.deadline_seconds');
    await bad({ target: { kind: 'image', reference: 'x' }, deadline_seconds: 10 ** 9 }, 'body.deadline_seconds');
    await bad({ target: { kind: 'image', reference: 'x' }, targets: [{ kind: 'image', reference: 'y' }] }, 'body.targets');
    await bad({}, 'body.target');
    await bad({ target: { kind: 'repository', url: 'ftp://x/y' } }, 'body.target.url');
    await bad({ target: { kind: 'image', reference: 'x' }, priority: 'high' }, 'body.priority');
    await bad({ targets: [] }, 'body.targets');
    await bad({ targets: Array.from({ length: 1001 }, () => ({ kind: 'image', reference: 'x' })) }, 'body.targets');
    await bad({ target: { kind: 'other', name: 'thing' } }, 'body.tools');
    await bad({ targets: [{ kind: 'image', reference: 'x' }], tools: ['semgrep'] }, 'body.tools[0]');
  });

  it('refuses a viewer (no scans:create) with 403 and a missing token with 401', async () => {
    const viewer = await createUser(planes.db);
    await addMember(planes.db, orgId, viewer.id, 'viewer');
    const res = await post({ target: { kind: 'image', reference: 'x' }, tools: ['image'] }, await issue(viewer.id)).expect(403);
    expect(res.body.error_code).toBe('forbidden');
    await request(planes.app('write')).post('/api/v2/scans').set('X-Organization-ID', orgId).send({}).expect(401);
  });

  it('answers 404 for another organization’s scan and scan request', async () => {
    const scan = (await post({ target: { kind: 'image', reference: 'x' }, tools: ['image'] }).expect(201)).body;
    const req = (await post({ targets: [{ kind: 'image', reference: 'x' }], tools: ['image'] }).expect(202)).body;
    const foreignScan = await get(`/api/v2/scans/${scan.scan_id}`, otherToken, otherOrgId).expect(404);
    expect(foreignScan.body.error_code).toBe('not_found');
    await get(`/api/v2/scan-requests/${req.scan_request_id}/timeline`, otherToken, otherOrgId).expect(404);
    await get(`/api/v2/scans/00000000-0000-7000-8000-000000000000`).expect(404);
    await get(`/api/v2/scans/not-a-uuid`).expect(422);
  });
});
