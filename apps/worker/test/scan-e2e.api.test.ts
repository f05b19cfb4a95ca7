import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { makeQueueProducer, startWorkers, type TQueueName, type TQueueProducer } from '@palisade/queue';
import { createOrgWithMember, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildCallbackApi } from '../../callback-api/src/app';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { makeJobHandlers } from '../src/handlers';
import { makeGitRepo } from './git-fixture';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
// Real GitHub advisories in OSV format, shipped with the shared corpus (MANIFEST.md).
const ADVISORIES = path.resolve(__dirname, '../../../../shared/corpus/advisories-osv');
const QUEUES: TQueueName[] = ['scan-fanout', 'scan-plan', 'scan-tool', 'scan-deadline', 'outbox-dispatch'];

describe('scans end to end on real BullMQ workers', () => {
  let planes: TTestPlanes;
  let server: Server;
  let redis: Redis;
  let queue: TQueueProducer;
  let workers: { close(): Promise<void> };
  let workDir: string;
  let repo: ReturnType<typeof makeGitRepo>;
  let orgId: string;
  let token: string;

  const get = (p: string) => request(planes.app('read')).get(p).set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId);
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    let value = await read();
    while (!done(value) && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      value = await read();
    }
    return value;
  }

  beforeAll(async () => {
    // The fixture repositories are local (file://), which a deployment must enable.
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, callback: buildCallbackApi }, { FILE_REPOSITORIES_ENABLED: 'true' });
    server = planes.app('callback').listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    redis = new Redis(planes.env.REDIS_URL, { maxRetriesPerRequest: null });
    queue = makeQueueProducer({ connection: redis, prefix: planes.env.REDIS_PREFIX });
    workDir = mkdtempSync(path.join(tmpdir(), 'palisade-work-'));
    const handlers = makeJobHandlers({
      db: planes.db,
      redis,
      redisPrefix: planes.env.REDIS_PREFIX,
      queue,
      log: silent,
      callbackBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      workDir,
      repositorySources: { fileUrls: true },
      advisoryDir: ADVISORIES,
    });
    workers = startWorkers({ connection: redis, prefix: planes.env.REDIS_PREFIX, queues: QUEUES, handlers, log: silent });
    const { org, user } = await createOrgWithMember(planes.db, 'member');
    orgId = org.id;
    token = (await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false })).token;
    repo = makeGitRepo({
      '.env': `GITHUB_TOKEN=ghp_${randomBytes(18).toString('hex')}\n`,
      'deploy/pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: web\n      image: nginx:latest\n      securityContext:\n        privileged: true\n',
      // lodash 4.17.20 is inside GHSA-35jh-r3h4-6jhm (fixed in 4.17.21).
      'package-lock.json': JSON.stringify({
        name: 'app',
        lockfileVersion: 3,
        packages: { '': { name: 'app', dependencies: { lodash: '4.17.20' } }, 'node_modules/lodash': { version: '4.17.20' } },
      }),
    });
  });

  afterAll(async () => {
    await workers?.close();
    await queue?.close();
    redis?.disconnect();
    await new Promise((resolve) => server?.close(resolve));
    await planes?.close();
    repo?.cleanup();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('a multi-target request of repositories ends succeeded, with findings ingested and every change on the org stream', async () => {
    const accepted = await request(planes.app('write'))
      .post('/api/v2/scans')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Organization-ID', orgId)
      .send({ targets: [{ kind: 'repository', url: repo.url }, { kind: 'repository', url: repo.url, ref: 'main' }], deadline_seconds: 120 })
      .expect(202);
    const id = accepted.body.scan_request_id;
    const timeline = await until(
      async () => (await get(`/api/v2/scan-requests/${id}/timeline`).expect(200)).body,
      (body) => body.status === 'succeeded' || body.status === 'failed' || body.status === 'partial',
    );
    expect(timeline.status).toBe('succeeded');
    expect(timeline.progress).toEqual({ total: 2, created: 2, queued: 0, running: 0, finished: 2, failed: 0 });
    expect(timeline.events[0]).toMatchObject({ type: 'created' });
    expect(timeline.events.at(-1)).toMatchObject({ type: 'completed', to: 'succeeded' });

    const scanId = timeline.events.find((e: { type: string }) => e.type === 'scan_created').scan_id;
    const scan = (await get(`/api/v2/scans/${scanId}`).expect(200)).body;
    expect(scan).toMatchObject({ status: 'succeeded', plan: 'automatic', scan_request_id: id });
    expect(scan.plan_reason).toMatch(/iac: .*deploy\/pod\.yaml/);
    expect(scan.plan_reason).toMatch(/sca: found package-lock\.json/);
    expect(scan.tools.map((t: { tool: string; status: string }) => [t.tool, t.status])).toEqual([
      ['secrets', 'succeeded'],
      ['sca', 'succeeded'],
      ['iac', 'succeeded'],
    ]);
    expect(scan.findings_count).toBeGreaterThanOrEqual(3);
    const sca = (await get(`/api/v2/findings?tool=sca`).expect(200)).body.items;
    expect(sca).toEqual([expect.objectContaining({ tool: 'sca', severity: 'high', rule: expect.objectContaining({ id: 'GHSA-35jh-r3h4-6jhm', cve: ['CVE-2021-23337'] }) })]);
    const detail = (await get(`/api/v2/findings/${sca[0].finding_id}/detail`).expect(200)).body;
    expect(detail.evidence).toEqual([expect.objectContaining({ kind: 'dependency_path', path: ['pkg:npm/lodash@4.17.20'], fixed_versions: ['4.17.21'] })]);

    // Every outbox row reaches the org stream (outbox-dispatch runs as a worker here).
    const rows = await until(
      () => planes.db.primary.outbox.count({ where: { orgId, dispatchedAt: null } }),
      (n) => n === 0,
    );
    expect(rows).toBe(0);
    const total = await planes.db.primary.outbox.count({ where: { orgId } });
    expect(await redis.xlen(`${planes.env.REDIS_PREFIX}events:org:${orgId}`)).toBe(total);
  });
});
