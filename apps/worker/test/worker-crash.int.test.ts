import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { scanJobIds } from '@palisade/domain';
import { bullPrefix, type TQueueName } from '@palisade/queue';
import { createOrgWithMember, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { freePort, REPO_ROOT, tsNodeArgs, waitForOk } from '@palisade/testing/stack/edge-nginx';
import { ManagedProcess, tail } from '@palisade/testing/stack/managed-process';
import { buildCallbackApi } from '../../callback-api/src/app';
import { buildReadApi } from '../../read-api/src/app';
import { buildWriteApi } from '../../write-api/src/app';
import { makeGitRepo } from './git-fixture';
import { startCallbackRelay, type TCallbackRelay } from './support/callback-relay';

/**
 * The worker as a real OS process, SIGKILLed twice while the callback plane ingests the report of
 * one of its built-in tools:
 *   1. mid-body: the plane has merged the first batch of findings and waits for the rest, which
 *      dies with the worker — the plane rolls back, and the retried job re-runs the tool;
 *   2. after the whole body was sent, before the plane answered — the plane commits the report
 *      of the dead worker, and the retried job finds the tool ended and posts nothing.
 * A fresh worker process takes the killed one's jobs over once their locks lapse (shortened here
 * through WORKER_LOCK_DURATION_MS / WORKER_STALLED_INTERVAL_MS). Both scans end succeeded with
 * every finding exactly once and every outbox row on the org stream exactly once.
 */
// Real GitHub advisories in OSV format, shipped with the shared corpus (MANIFEST.md).
const ADVISORIES = path.resolve(__dirname, '../../../../shared/corpus/advisories-osv');
const SECRETS_PER_FILE = 200; // the scanner's per-file cap
const LOCK_DURATION_MS = 2000;
const STALLED_INTERVAL_MS = 500;
const TOOLS = ['secrets', 'iac', 'sca'] as const;
const QUEUES: TQueueName[] = ['scan-tool', 'outbox-dispatch', 'dead-letter'];
const SECRETS_REPORT = /^\/api\/v2\/callbacks\/scans\/[^/]+\/tools\/secrets$/;

describe('a worker process killed mid-ingest', () => {
  let planes: TTestPlanes;
  let callback: Server;
  let relay: TCallbackRelay;
  let redis: Redis;
  let queues: Map<TQueueName, Queue>;
  let workDir: string;
  let orgId: string;
  let token: string;
  const repos: Array<ReturnType<typeof makeGitRepo>> = [];
  const workers: ManagedProcess[] = [];

  const get = (p: string) => request(planes.app('read')).get(p).set('Authorization', `Bearer ${token}`).set('X-Organization-ID', orgId);
  const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => (await planes.db.pool.query(text, values)).rows as T[];
  const databaseName = () => new URL(planes.env.DATABASE_URL).pathname.slice(1);

  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000, every = 25): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(value)})\n${workerLogs()}`);
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  }

  function workerLogs(): string {
    return workers.map((w) => `--- ${w.name} (${w.describeExit()})\n${tail(w.stdout + w.stderr, 30)}`).join('\n');
  }

  async function startWorker(): Promise<ManagedProcess> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      DATABASE_URL: planes.env.DATABASE_URL,
      REDIS_URL: planes.env.REDIS_URL,
      REDIS_PREFIX: planes.env.REDIS_PREFIX,
      KEY_ENCRYPTION_KEY: planes.env.KEY_ENCRYPTION_KEY,
      CALLBACK_BASE_URL: relay.url,
      WORKER_WORK_DIR: workDir,
      FILE_REPOSITORIES_ENABLED: 'true',
      PALISADE_ADVISORY_DIR: ADVISORIES,
      WORKER_LOCK_DURATION_MS: String(LOCK_DURATION_MS),
      WORKER_STALLED_INTERVAL_MS: String(STALLED_INTERVAL_MS),
    };
    delete env.DATABASE_READ_URL;
    const child = new ManagedProcess({
      name: `worker #${workers.length + 1}`,
      command: process.execPath,
      args: tsNodeArgs(path.join(REPO_ROOT, 'apps/worker/src/main.ts')),
      cwd: REPO_ROOT,
      env,
    });
    workers.push(child);
    await waitForOk(`http://127.0.0.1:${port}/readyz`, child, 30_000, () => child.stdout + child.stderr);
    return child;
  }

  async function kill(worker: ManagedProcess): Promise<void> {
    worker.killGroup('SIGKILL');
    expect(await worker.exited).toMatchObject({ signal: 'SIGKILL' });
  }

  /** A repository whose built-in tools all report: `secretFiles` × 200 distinct tokens, one Dockerfile misconfiguration set, one vulnerable lockfile. */
  function makeRepo(secretFiles: number): { repo: ReturnType<typeof makeGitRepo>; secrets: number } {
    const files: Record<string, string> = {
      Dockerfile: 'FROM node:latest\nUSER root\nCMD ["node", "index.js"]\n',
      // lodash 4.17.20 is inside GHSA-35jh-r3h4-6jhm (fixed in 4.17.21).
      'package-lock.json': JSON.stringify({
        name: 'app',
        lockfileVersion: 3,
        packages: { '': { name: 'app', dependencies: { lodash: '4.17.20' } }, 'node_modules/lodash': { version: '4.17.20' } },
      }),
    };
    for (let f = 0; f < secretFiles; f++) {
      files[`config/keys-${f}.env`] = Array.from({ length: SECRETS_PER_FILE }, (_, n) => `TOKEN_${n}=ghp_${randomBytes(18).toString('hex')}\n`).join('');
    }
    const repo = makeGitRepo(files);
    repos.push(repo);
    return { repo, secrets: secretFiles * SECRETS_PER_FILE };
  }

  async function createScan(url: string): Promise<string> {
    const created = await request(planes.app('write'))
      .post('/api/v2/scans')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Organization-ID', orgId)
      .send({ target: { kind: 'repository', url }, tools: [...TOOLS], deadline_seconds: 600 })
      .expect(201);
    return created.body.scan_id;
  }

  const scanView = async (scanId: string) => (await get(`/api/v2/scans/${scanId}`).expect(200)).body;
  const toolStatus = async (scanId: string, tool: string) => (await scanView(scanId)).tools.find((t: { tool: string }) => t.tool === tool)?.status;
  /** Finding rows of one tool on the scan's entity: total and distinct fingerprints. */
  const findingRows = async (scanId: string, tool: string) =>
    (
      await sql<{ rows: number; fingerprints: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT f.fingerprint)::int AS fingerprints
           FROM findings f JOIN scans s ON s.org_id = f.org_id AND s.entity_type = f.entity_type AND s.entity_id = f.entity_id
          WHERE s.id = $1 AND f.tool = $2`,
        [scanId, tool],
      )
    )[0];
  /** Backends of this database inside an ingest: holding its (org, entity, tool) advisory lock. */
  const ingestBackends = () =>
    sql<{ state: string; waiting: boolean }>(
      `SELECT a.state, (a.state = 'idle in transaction' AND a.state_change < now() - interval '200 milliseconds') AS waiting
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND a.datname = $1 AND a.pid <> pg_backend_pid()`,
      [databaseName()],
    );
  const activeJobs = async () => {
    let n = 0;
    for (const queue of queues.values()) n += await queue.getActiveCount();
    return n;
  };

  beforeAll(async () => {
    // The fixture repositories are local (file://), which a deployment must enable.
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi, callback: buildCallbackApi }, { FILE_REPOSITORIES_ENABLED: 'true' });
    callback = planes.app('callback').listen(0, '127.0.0.1');
    await new Promise((resolve) => callback.once('listening', resolve));
    relay = await startCallbackRelay({ host: '127.0.0.1', port: (callback.address() as AddressInfo).port });
    redis = new Redis(planes.env.REDIS_URL, { maxRetriesPerRequest: null });
    queues = new Map(QUEUES.map((name) => [name, new Queue(name, { connection: redis, prefix: bullPrefix(planes.env.REDIS_PREFIX) })]));
    workDir = mkdtempSync(path.join(tmpdir(), 'palisade-work-'));
    const { org, user } = await createOrgWithMember(planes.db, 'member');
    orgId = org.id;
    token = (await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false })).token;
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    for (const queue of queues?.values() ?? []) await queue.close();
    redis?.disconnect();
    await relay?.close();
    await new Promise((resolve) => callback?.close(resolve));
    await planes?.close();
    for (const repo of repos) repo.cleanup();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('loses nothing and duplicates nothing', async () => {
    // More than one ingest batch (10,000 rows), so the first is merged before the body is cut.
    const first = makeRepo(60);
    const second = makeRepo(5);

    // 1. Killed while the plane, mid-body, has an ingest transaction open and waits for the rest.
    const workerA = await startWorker();
    let cut = false;
    relay.on(SECRETS_REPORT, { cutAt: (length) => Math.floor(length * 0.9), onForwarded: () => (cut = true) });
    const scanX = await createScan(first.repo.url);
    // The plane has read all it was given and sits in its transaction, waiting for the rest.
    await until('the cut secrets report is being ingested', async () => (cut ? await ingestBackends() : []), (rows) => rows.some((r) => r.waiting));
    await kill(workerA);
    // The plane notices the truncated body and rolls back: nothing of the report stays.
    await until('the truncated ingest rolled back', ingestBackends, (rows) => rows.length === 0);
    expect(await findingRows(scanX, 'secrets')).toEqual({ rows: 0, fingerprints: 0 });
    expect(await toolStatus(scanX, 'secrets')).toBe('running');

    // A fresh worker takes the stalled job over and runs the tool again.
    const workerB = await startWorker();
    await until('scan X ends', () => scanView(scanX), (scan) => scan.status !== 'queued' && scan.status !== 'running', 20_000, 100);
    // B must hold nothing of scan X when it dies: every job of X done, not one left active.
    await until('scan X outbox dispatched', () => planes.db.primary.outbox.count({ where: { orgId, dispatchedAt: null } }), (n) => n === 0);
    await until('no job active', activeJobs, (n) => n === 0);

    // 2. Killed once the whole body went out, before the plane answered.
    relay.on(SECRETS_REPORT, { onForwarded: () => workerB.killGroup('SIGKILL') });
    const scanY = await createScan(second.repo.url);
    expect(await workerB.exited).toMatchObject({ signal: 'SIGKILL' });
    // With no worker alive, the plane finishes the dead worker's report.
    await until('the delivered report is committed', () => toolStatus(scanY, 'secrets'), (status) => status === 'succeeded');
    const committed = await findingRows(scanY, 'secrets');
    expect(committed).toEqual({ rows: second.secrets, fingerprints: second.secrets });

    await startWorker();
    await until('scan Y ends', () => scanView(scanY), (scan) => scan.status !== 'queued' && scan.status !== 'running', 20_000, 100);
    // Y's secrets tool ended with the dead worker's report, so the scan can end before that
    // worker's job is taken over (once its lock expires): wait for the job too.
    const secretsJob = (scanId: string) => queues.get('scan-tool')!.getJob(scanJobIds.tool(scanId, 'secrets'));
    await until("scan Y's secrets job taken over and finished", () => secretsJob(scanY), (job) => job?.finishedOn !== undefined);

    // Both scans: every tool succeeded, its findings there once, the counts agree.
    for (const [scanId, secrets] of [[scanX, first.secrets], [scanY, second.secrets]] as const) {
      const scan = await scanView(scanId);
      expect(scan.status).toBe('succeeded');
      let total = 0;
      for (const tool of scan.tools as Array<{ tool: string; status: string; findings_count: number }>) {
        const rows = await findingRows(scanId, tool.tool);
        expect({ tool: tool.tool, status: tool.status, ...rows }).toEqual({ tool: tool.tool, status: 'succeeded', rows: tool.findings_count, fingerprints: tool.findings_count });
        expect(tool.findings_count).toBeGreaterThanOrEqual(1);
        total += tool.findings_count;
      }
      expect(scan.tools.find((t: { tool: string }) => t.tool === 'secrets').findings_count).toBe(secrets);
      expect(scan.findings_count).toBe(total);
    }
    // One accepted report per tool; one `findings.created` entry per finding, not one more.
    const [receipts] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM ingest_receipts WHERE org_id = $1', [orgId]);
    expect(receipts.n).toBe(2 * TOOLS.length);
    const [events] = await sql<{ created: number; findings: number }>(
      `SELECT (SELECT coalesce(sum(json_array_length(payload->'findings')), 0)::int FROM outbox WHERE org_id = $1 AND event = 'findings.created') AS created,
              (SELECT count(*)::int FROM findings WHERE org_id = $1) AS findings`,
      [orgId],
    );
    expect(events.created).toBe(events.findings);

    // Every outbox row dispatched, and on the org stream exactly once.
    await until('outbox dispatched', () => planes.db.primary.outbox.count({ where: { orgId, dispatchedAt: null } }), (n) => n === 0);
    const outbox = (await planes.db.primary.outbox.findMany({ where: { orgId }, select: { id: true } })).map((row) => row.id).sort();
    const stream = await redis.xrange(`${planes.env.REDIS_PREFIX}events:org:${orgId}`, '-', '+');
    const published = stream.map(([, fields]) => fields[fields.indexOf('event_id') + 1]).sort();
    expect(published).toEqual(outbox);

    // Each secrets job was taken over once after its worker died: X's ran the tool again and
    // posted, Y's found the tool already ended by the dead worker's report.
    expect(await secretsJob(scanX)).toMatchObject({ stalledCounter: 1, returnvalue: { posted: first.secrets } });
    expect(await secretsJob(scanY)).toMatchObject({ stalledCounter: 1, returnvalue: { skipped: true } });
    // Nothing given up on the way.
    const parked = await queues.get('dead-letter')!.getJobCounts();
    expect(parked).toEqual(Object.fromEntries(Object.keys(parked).map((state) => [state, 0])));
    expect(await queues.get('scan-tool')!.getFailedCount()).toBe(0);
  }, 60_000);
});
