import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { createDb, type Db } from '@palisade/db';
import { syntheticSarif } from '@palisade/domain/reports/testing/synthetic-sarif';
import { createOrganization, createTestDatabase, createTestRedisPrefix, type TTestDatabase } from '@palisade/testing';
import { freePort, REPO_ROOT, tsNodeArgs, waitForOk } from '@palisade/testing/stack/edge-nginx';
import { ManagedProcess } from '@palisade/testing/stack/managed-process';
import { createExternalScan, type TExternalScan } from './support/ingest-harness';

/**
 * A callback plane killed (SIGKILL) in the middle of an ingest leaves nothing behind: a first
 * report killed while its body still streams into the COPY into `findings`, and again while a
 * COPY runs; a retry on a fresh process then ingests it exactly once. Then a later scan of the
 * same entity, whose report is merged with what is known, killed while the merge runs: the
 * findings stay exactly as the first report left them, and its retry sees every one again.
 */
const RESULTS = 40_000;

describe('a callback plane killed mid-ingest', () => {
  let database: TTestDatabase;
  let db: Db;
  const redis = createTestRedisPrefix();
  const kek = randomBytes(32).toString('base64');
  let orgId: string;
  let scan: TExternalScan;
  let rescan: TExternalScan;
  const target = { kind: 'other' as const, name: `crash-${randomBytes(4).toString('hex')}` };
  const body = Buffer.concat([...syntheticSarif(RESULTS)]);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url });
    orgId = (await createOrganization(db)).id;
    scan = await createExternalScan({ db }, { orgId }, { tools: ['codeql-ext'], target });
    rescan = await createExternalScan({ db }, { orgId }, { tools: ['codeql-ext'], target });
  });
  afterAll(async () => {
    await db?.close();
    await redis.cleanup();
    await database?.drop();
  });

  async function startPlane(): Promise<{ child: ManagedProcess; port: number }> {
    const port = await freePort();
    const child = new ManagedProcess({
      name: 'callback plane',
      command: process.execPath,
      args: tsNodeArgs(path.join(REPO_ROOT, 'apps/callback-api/src/main.ts')),
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, KEY_ENCRYPTION_KEY: kek },
    });
    await waitForOk(`http://127.0.0.1:${port}/readyz`, child, 60_000, () => child.stdout + child.stderr);
    return { child, port };
  }

  /** Posts the report; `pause` holds back the second half of the body until it resolves. */
  function post(port: number, pause?: Promise<void>, to: TExternalScan = scan): Promise<{ status: number; body: string } | { error: Error }> {
    return new Promise((resolve) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/api/v2/callbacks/scans/${to.scanId}/tools/codeql-ext`,
          headers: { Authorization: `Bearer ${to.tokens['codeql-ext']}`, 'Content-Type': 'application/sarif+json', 'Content-Length': body.length, 'Idempotency-Key': 'crash-test' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', (error) => resolve({ error }));
        },
      );
      req.on('error', (error) => resolve({ error }));
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      void (pause ?? Promise.resolve()).then(() => req.end(body.subarray(half)));
    });
  }

  /** Waits for a backend of the plane whose current (or last, when idle in transaction) statement matches. */
  async function waitForQuery(pattern: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await db.pool.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND state IN ('active', 'idle in transaction') AND query LIKE $2 AND pid <> pg_backend_pid()",
        [database.name, pattern],
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`no query like ${pattern} ran within ${timeoutMs} ms`);
  }

  async function written(): Promise<Record<string, number | string>> {
    const one = async (sql: string) => (await db.pool.query(sql, [orgId])).rows[0].n as number;
    return {
      findings: await one('SELECT count(*)::int AS n FROM findings WHERE org_id = $1'),
      history: await one('SELECT count(*)::int AS n FROM finding_history WHERE org_id = $1'),
      findingEvents: await one("SELECT coalesce(sum(json_array_length(payload->'findings')), 0)::int AS n FROM outbox WHERE org_id = $1 AND topic = 'findings'"),
      receipts: await one('SELECT count(*)::int AS n FROM ingest_receipts WHERE org_id = $1'),
      tool: (await db.pool.query('SELECT status::text AS s FROM scan_tools WHERE scan_id = $1', [scan.scanId])).rows[0].s,
      lastSeen: await one('SELECT count(DISTINCT last_seen_scan_id)::int AS n FROM findings WHERE org_id = $1'),
    };
  }

  const nothing = { findings: 0, history: 0, findingEvents: 0, receipts: 0, tool: 'pending', lastSeen: 0 };

  it('loses nothing and duplicates nothing', async () => {
    // 1. Killed while the body streams into the COPY into findings (a first report is not staged).
    const first = await startPlane();
    let release!: () => void;
    const pending = post(first.port, new Promise<void>((resolve) => (release = resolve)));
    // The first batches are written while the second half of the body is held back.
    await waitForQuery('%COPY findings%');
    first.child.killGroup('SIGKILL');
    await first.child.exited;
    release();
    expect(await pending).toHaveProperty('error');
    expect(await written()).toEqual(nothing);

    // 2. Killed while a COPY into findings runs, the whole body sent.
    const second = await startPlane();
    await killWhileRunning(second, post(second.port), '%COPY findings%');
    expect(await written()).toEqual(nothing);

    // 3. The retry on a fresh process ingests the report once; another retry is a replay.
    const third = await startPlane();
    try {
      const ok = await post(third.port);
      expect(ok).toMatchObject({ status: 200 });
      const result = JSON.parse((ok as { body: string }).body);
      expect(result.results).toBe(RESULTS);
      const after = await written();
      expect(after).toMatchObject({ findings: result.findings.new, history: 0, findingEvents: result.findings.new, receipts: 1, tool: 'succeeded' });
      expect(result.findings.new).toBeGreaterThan(RESULTS * 0.9);
      const replay = await post(third.port);
      expect(replay).toMatchObject({ status: 200 });
      expect(JSON.parse((replay as { body: string }).body)).toEqual(result);
      expect(await written()).toEqual(after);

      // 4. A later scan of the same entity is merged with what is known; killed mid-merge
      //    (pg_stat_activity keeps only the statement's start), it changes nothing.
      await killWhileRunning(third, post(third.port, undefined, rescan), '%SELECT DISTINCT ON (fingerprint)%');
      expect(await written()).toEqual(after);

      const fourth = await startPlane();
      try {
        const merged = await post(fourth.port, undefined, rescan);
        expect(merged).toMatchObject({ status: 200 });
        expect(JSON.parse((merged as { body: string }).body).findings).toMatchObject({ new: 0, seen_again: result.findings.new, fixed: 0 });
        expect(await written()).toMatchObject({ findings: after.findings, history: 0, receipts: 2, lastSeen: 1 });
      } finally {
        await fourth.child.stop();
      }
    } finally {
      await third.child.stop();
    }
  }, 240_000);

  /** Until the killed plane's backend has noticed and rolled back (its locks go with it). */
  /**
   * SIGKILLs the plane once PostgreSQL runs `query` for it: the request fails, and PostgreSQL
   * notices the dead connection and rolls its transaction back.
   */
  async function killWhileRunning(plane: { child: ManagedProcess }, request: Promise<unknown>, query: string): Promise<void> {
    await waitForQuery(query);
    plane.child.killGroup('SIGKILL');
    await plane.child.exited;
    expect(await request).toHaveProperty('error');
    await waitForNoActiveIngest();
  }

  async function waitForNoActiveIngest(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const { rows } = await db.pool.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')",
        [database.name],
      );
      if (rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the killed ingest transaction is still open');
  }
});
