import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { transitionTool, type Prisma } from '@palisade/db';
import { bullPrefix, makeQueueProducer, startWorkers, type TQueueProducer } from '@palisade/queue';
import { createOrgWithMember, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildCallbackApi } from '../../callback-api/src/app';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { makeJobHandlers, type TWorkerDeps } from '../src/handlers';
import { makeGitRepo } from './git-fixture';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('scan lifecycle: plan, built-in tools, deadline, fan-out, outbox (worker jobs against real planes)', () => {
  let planes: TTestPlanes;
  let server: Server;
  let redis: Redis;
  let queue: TQueueProducer;
  let deps: TWorkerDeps;
  let handlers: ReturnType<typeof makeJobHandlers>;
  let orgId: string;
  let token: string;
  let workDir: string;
  let repo: ReturnType<typeof makeGitRepo>;

  const post = (body: unknown) =>
    request(planes.app('write')).post('/api/v2/scans').set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId).send(body as object);
  const get = (p: string) => request(planes.app('read')).get(p).set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId);
  const run = <Q extends keyof typeof handlers>(name: Q, payload: Parameters<NonNullable<(typeof handlers)[Q]>>[0]) =>
    (handlers[name] as (p: unknown) => Promise<unknown>)(payload);

  beforeAll(async () => {
    // The fixture repositories are local (file://), which a deployment must enable.
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, callback: buildCallbackApi }, { FILE_REPOSITORIES_ENABLED: 'true' });
    server = planes.app('callback').listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    redis = new Redis(planes.env.REDIS_URL, { maxRetriesPerRequest: null });
    queue = makeQueueProducer({ connection: redis, prefix: planes.env.REDIS_PREFIX });
    workDir = mkdtempSync(path.join(tmpdir(), 'palisade-work-'));
    deps = {
      db: planes.db,
      redis,
      redisPrefix: planes.env.REDIS_PREFIX,
      queue,
      log: silent,
      callbackBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      workDir,
      repositorySources: { fileUrls: true },
    };
    handlers = makeJobHandlers(deps);
    const { org, user } = await createOrgWithMember(planes.db, 'member');
    orgId = org.id;
    token = (await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false })).token;
    repo = makeGitRepo({
      'src/config.ts': `export const githubToken = "ghp_${randomBytes(18).toString('hex')}";\n`,
      Dockerfile: 'FROM node:latest\nUSER root\nCMD ["node", "index.js"]\n',
      'package-lock.json': '{"lockfileVersion": 3}\n',
      'README.md': '# fixture\n',
    });
  });

  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await new Promise((resolve) => server?.close(resolve));
    await planes?.close();
    repo?.cleanup();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('plans a repository from its checkout, and its built-in tools report through the callback plane', async () => {
    const created = (await post({ target: { kind: 'repository', url: repo.url } }).expect(201)).body;
    expect(created).toMatchObject({ plan: 'automatic', tools: [], plan_reason: null });

    await run('scan-plan', { org_id: orgId, scan_id: created.scan_id });
    const planned = (await get(`/api/v2/scans/${created.scan_id}`).expect(200)).body;
    expect(planned.tools.map((t: { tool: string }) => t.tool)).toEqual(['secrets', 'sca', 'iac']);
    expect(planned.plan_reason).toMatch(/sca: .*package-lock\.json/);
    expect(planned.plan_reason).toMatch(/iac: .*Dockerfile/);
    expect(planned.tools.every((t: { status: string }) => t.status === 'queued')).toBe(true);

    for (const tool of ['secrets', 'sca', 'iac']) await run('scan-tool', { org_id: orgId, scan_id: created.scan_id, tool });
    const done = (await get(`/api/v2/scans/${created.scan_id}`).expect(200)).body;
    const byTool = Object.fromEntries(done.tools.map((t: { tool: string }) => [t.tool, t]));
    expect(byTool.secrets).toMatchObject({ status: 'succeeded', error: null, started_at: expect.any(String), finished_at: expect.any(String) });
    expect(byTool.secrets.findings_count).toBeGreaterThanOrEqual(1);
    expect(byTool.iac).toMatchObject({ status: 'succeeded' });
    expect(byTool.iac.findings_count).toBeGreaterThanOrEqual(1);
    // This worker has no advisory database: sca says so instead of reporting an all-clear.
    expect(byTool.sca).toMatchObject({ status: 'skipped', error: { error_code: 'advisories_not_configured', message: expect.stringContaining('PALISADE_ADVISORY_DIR') } });
    expect(done).toMatchObject({ status: 'partial', started_at: expect.any(String), finished_at: expect.any(String) });
    expect(done.findings_count).toBe(byTool.secrets.findings_count + byTool.iac.findings_count);

    // A replayed job finds the tool finished and does nothing.
    await expect(run('scan-tool', { org_id: orgId, scan_id: created.scan_id, tool: 'secrets' })).resolves.toEqual({ skipped: true });

    // An illegal transition is refused and writes nothing.
    const before = await planes.db.primary.outbox.count({ where: { orgId } });
    await expect(
      planes.db.primary.$transaction((tx: Prisma.TransactionClient) => transitionTool(tx, orgId, created.scan_id, 'secrets', 'failed')),
    ).rejects.toMatchObject({ code: 'invalid_state_transition' });
    expect(await planes.db.primary.outbox.count({ where: { orgId } })).toBe(before);
  });

  it('fails the scan with the reason when the checkout of an automatic plan fails', async () => {
    const created = (await post({ target: { kind: 'repository', url: `${repo.url}-missing` } }).expect(201)).body;
    await run('scan-plan', { org_id: orgId, scan_id: created.scan_id });
    const scan = (await get(`/api/v2/scans/${created.scan_id}`).expect(200)).body;
    expect(scan).toMatchObject({ status: 'failed', tools: [], plan_reason: expect.stringMatching(/^automatic plan failed: /) });
  });

  it('refuses to clone a file:// repository where the deployment has not enabled them, and fails the tool with the reason', async () => {
    const created = (await post({ target: { kind: 'repository', url: repo.url }, tools: ['secrets'] }).expect(201)).body;
    // A worker of another deployment, or one whose setting changed after the scan was created.
    const refusing = makeJobHandlers({ ...deps, repositorySources: { fileUrls: false } });
    const runRefusing = refusing['scan-tool'] as (payload: unknown) => Promise<unknown>;
    await expect(runRefusing({ org_id: orgId, scan_id: created.scan_id, tool: 'secrets' })).resolves.toEqual({ failed: 'checkout_invalid_url' });
    const scan = (await get(`/api/v2/scans/${created.scan_id}`).expect(200)).body;
    expect(scan.status).toBe('failed');
    expect(scan.tools[0]).toMatchObject({
      tool: 'secrets',
      status: 'failed',
      error: { error_code: 'checkout_invalid_url', message: expect.stringContaining('file:// repositories are not enabled') },
    });
    expect(scan.findings_count).toBe(0);
  });

  it('times out unfinished tools at the deadline with a delayed job; the outcome follows from the tools', async () => {
    const workers = startWorkers({ connection: redis, prefix: planes.env.REDIS_PREFIX, queues: ['scan-deadline'], handlers, log: silent });
    try {
      const created = (await post({ target: { kind: 'image', reference: 'nginx:1.27' }, tools: ['trivy', 'grype'], deadline_seconds: 1 }).expect(201)).body;
      const [trivy, grype] = created.tools;
      const report = { format: 'palisade', version: 1, tool: { name: 'trivy' }, results: [] };
      await request(planes.app('callback'))
        .post(new URL(trivy.callback.url).pathname)
        .set('Authorization', `Bearer ${trivy.callback.token}`)
        .set('Content-Type', 'application/json')
        .set('X-Report-Format', 'palisade')
        .send(JSON.stringify(report))
        .expect(200);

      let scan = (await get(`/api/v2/scans/${created.scan_id}`).expect(200)).body;
      expect(scan.status).toBe('running');
      for (let i = 0; i < 50 && !['partial', 'failed', 'succeeded'].includes(scan.status); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        scan = (await get(`/api/v2/scans/${created.scan_id}`).expect(200)).body;
      }
      expect(scan.status).toBe('partial');
      expect(scan.tools[0]).toMatchObject({ tool: 'trivy', status: 'succeeded' });
      expect(scan.tools[1]).toMatchObject({ tool: 'grype', status: 'timed_out', error: { error_code: 'deadline_exceeded', message: expect.any(String) } });

      // The late tool's credential has expired with its deadline.
      const late = await request(planes.app('callback'))
        .post(new URL(grype.callback.url).pathname)
        .set('Authorization', `Bearer ${grype.callback.token}`)
        .set('Content-Type', 'application/json')
        .set('X-Report-Format', 'palisade')
        .send(JSON.stringify({ ...report, tool: { name: 'grype' } }));
      expect([401, 409]).toContain(late.status);
    } finally {
      await workers.close();
    }
  });

  it('fans out one scan per target exactly once, and the timeline shows every transition in order', async () => {
    const accepted = (
      await post({ targets: [{ kind: 'repository', url: repo.url }, { kind: 'repository', url: repo.url, ref: 'main' }, { kind: 'image', reference: 'nginx:1' }], tools: ['secrets', 'dast'] }).expect(202)
    ).body;
    const id = accepted.scan_request_id;
    await run('scan-fanout', { org_id: orgId, scan_request_id: id });
    await run('scan-fanout', { org_id: orgId, scan_request_id: id }); // a retried job adds nothing
    const scans = await planes.db.primary.scan.findMany({ where: { orgId, scanRequestId: id }, orderBy: { id: 'asc' } });
    expect(scans).toHaveLength(3);
    expect(scans.map((s) => (s.target as { kind: string }).kind)).toEqual(['repository', 'repository', 'image']);

    let timeline = (await get(`/api/v2/scan-requests/${id}/timeline`).expect(200)).body;
    expect(timeline.status).toBe('running');
    expect(timeline.progress).toEqual({ total: 3, created: 3, queued: 3, running: 0, finished: 0, failed: 0 });
    expect(timeline.events.map((e: { type: string }) => e.type)).toEqual(['created', 'fanout_started', 'scan_created', 'scan_created', 'scan_created', 'fanout_completed']);
    expect(timeline.events[2]).toMatchObject({ scan_id: scans[0].id, target: { kind: 'repository', url: repo.url } });

    for (const scan of scans) {
      for (const tool of ['secrets', 'dast']) await run('scan-tool', { org_id: orgId, scan_id: scan.id, tool });
    }
    timeline = (await get(`/api/v2/scan-requests/${id}/timeline`).expect(200)).body;
    expect(timeline.status).toBe('partial');
    expect(timeline.progress).toEqual({ total: 3, created: 3, queued: 0, running: 0, finished: 3, failed: 1 });
    const changes = timeline.events.filter((e: { type: string }) => e.type === 'scan_status_changed');
    expect(changes.map((e: { scan_id: string; from: string; to: string }) => [e.scan_id, e.from, e.to])).toEqual([
      [scans[0].id, 'queued', 'running'],
      [scans[0].id, 'running', 'partial'],
      [scans[1].id, 'queued', 'running'],
      [scans[1].id, 'running', 'partial'],
      [scans[2].id, 'queued', 'failed'],
    ]);
    expect(timeline.events.at(-1)).toMatchObject({ type: 'completed', from: 'running', to: 'partial' });
    const times = timeline.events.map((e: { at: string }) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('publishes outbox rows once to the org stream, and the sweeper re-enqueues undispatched rows', async () => {
    const stream = `${planes.env.REDIS_PREFIX}events:org:${orgId}`;
    const pending = await planes.db.primary.outbox.findMany({ where: { orgId, dispatchedAt: null }, orderBy: { createdAt: 'asc' } });
    expect(pending.length).toBeGreaterThan(0);
    const already = await redis.xlen(stream);
    for (const row of pending) await run('outbox-dispatch', { outbox_id: row.id });
    expect(await redis.xlen(stream)).toBe(already + pending.length);
    expect(await planes.db.primary.outbox.count({ where: { orgId, dispatchedAt: null } })).toBe(0);

    const [[, fields]] = (await redis.xrange(stream, '-', '+', 'COUNT', 1)) as [string, string[]][];
    const entry = Object.fromEntries(fields.reduce<[string, string][]>((acc, v, i) => (i % 2 ? acc : [...acc, [v, fields[i + 1]]]), []));
    expect(entry).toMatchObject({ event_id: expect.any(String), topic: expect.any(String), event: expect.any(String), at: expect.any(String) });
    expect(JSON.parse(entry.payload)).toEqual(expect.any(Object));

    // Published but not stamped (a crash in between): the retry does not publish it again.
    await planes.db.primary.outbox.update({ where: { id: pending[0].id }, data: { dispatchedAt: null } });
    await run('outbox-dispatch', { outbox_id: pending[0].id });
    expect(await redis.xlen(stream)).toBe(already + pending.length);

    // A row whose job never got enqueued (Redis down at commit) is found by the sweep.
    const lost = await planes.db.primary.outbox.create({
      data: { orgId, topic: 'scan', event: 'scan.test', payload: {}, createdAt: new Date(Date.now() - 60_000) },
    });
    await run('outbox-sweep', {});
    const dispatchQueue = new Queue('outbox-dispatch', { connection: redis, prefix: bullPrefix(planes.env.REDIS_PREFIX) });
    try {
      expect(await dispatchQueue.getJob(lost.id)).toBeTruthy();
    } finally {
      await dispatchQueue.close();
    }
  });
});
