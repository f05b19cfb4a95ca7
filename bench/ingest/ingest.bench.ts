/**
 * Ingest benchmark (issue 4 "Figures"): a 64 MiB SARIF log of more than 100,000 results posted
 * end to end through the nginx edge to a real callback plane, beside a same-process baseline
 * (JSON.parse of the file + COPY of as many rows). Prints results/s, wall time, the callback
 * plane's peak RSS, the ratio to the baseline, and the time and new-row count of a second,
 * identical post (same Idempotency-Key).
 *
 *   npm run bench:ingest            (from the repository root)
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createDb, createScanInTransaction, uuidv7 } from '@palisade/db';
import { createOrganization, createTestDatabase, createTestRedisPrefix, startStack } from '@palisade/testing';
import { runBaseline } from './baseline';
import { pidListeningOn, sampleRss } from './rss-sampler';
import { writeSarifFixture } from './sarif-fixture';

const CAP = 64 * 1024 * 1024;
const TARGETS = { ratio: 0.4, rssMiB: 512, secondPostShare: 0.2 };
const say = (line: string) => process.stderr.write(`${line}\n`);
const mib = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'palisade-bench-ingest-'));
  const file = path.join(dir, 'report.sarif');
  say('[1/7] writing the SARIF fixture…');
  const fixture = await writeSarifFixture(file, CAP - 1024, (bytes) => process.stderr.write(`\r      ${mib(bytes)} MiB`));
  process.stderr.write('\n');
  say(`      ${fixture.results} results, ${mib(fixture.bytes)} MiB`);
  if (fixture.results < 100_000) throw new Error('the fixture must hold at least 100,000 results');

  say('[2/7] database, Redis prefix and the stack (callback + read planes behind nginx)…');
  const database = await createTestDatabase();
  const redis = createTestRedisPrefix();
  const db = createDb({ url: database.url });
  const stack = await startStack({ databaseUrl: database.url, redisUrl: redis.url, redisPrefix: redis.prefix, planes: ['callback', 'read'], env: { LOG_LEVEL: 'warn' }, runtime: 'compiled' });
  try {
    const callbackPort = Number(new URL(stack.planeUrls.callback!).port);
    const pid = pidListeningOn(callbackPort);
    say(`      edge ${stack.baseUrl}, callback plane pid ${pid}`);

    say('[3/7] a scan with one external tool…');
    const org = await createOrganization(db);
    const createScan = () =>
      db.primary.$transaction((tx) =>
        createScanInTransaction(tx, {
          orgId: org.id,
          scanId: uuidv7(),
          target: { kind: 'repository', url: 'https://git.example.test/bench/monorepo' },
          tools: ['codeql-ext'],
          deadlineAt: new Date(Date.now() + 3600_000),
        }),
      );
    const created = await createScan();
    const scanId = created.scan.id;
    const token = created.tokens.get('codeql-ext')!;
    const countFindings = async () => (await db.pool.query('SELECT count(*)::int AS n FROM findings WHERE org_id = $1', [org.id])).rows[0].n as number;

    say('[4/7] first post through the edge…');
    const rss = sampleRss(pid);
    const first = await post(stack.baseUrl, scanId, token, file, 'bench-1');
    const memory = rss.stop();
    if (first.status !== 200) throw new Error(`first post answered ${first.status}: ${first.body.slice(0, 500)}`);
    const firstResult = JSON.parse(first.body);
    const rowsAfterFirst = await countFindings();

    say('[5/7] second, identical post (same Idempotency-Key)…');
    const second = await post(stack.baseUrl, scanId, token, file, 'bench-1');
    if (second.status !== 200) throw new Error(`second post answered ${second.status}: ${second.body.slice(0, 500)}`);
    const newRowsSecond = (await countFindings()) - rowsAfterFirst;

    say('[6/7] the same report for a new scan of the same repository (the dedupe path: every finding known)…');
    const rescan = await createScan();
    const third = await post(stack.baseUrl, rescan.scan.id, rescan.tokens.get('codeql-ext')!, file, 'bench-rescan');
    if (third.status !== 200) throw new Error(`re-scan post answered ${third.status}: ${third.body.slice(0, 500)}`);
    const thirdResult = JSON.parse(third.body);
    const newRowsThird = (await countFindings()) - rowsAfterFirst;

    say('[7/7] baseline in this process: JSON.parse + COPY…');
    const baseline = await runBaseline(file, database.url);

    const ingestRate = fixture.results / (first.ms / 1000);
    const baselineRate = baseline.rows / (baseline.totalMs / 1000);
    const ratio = ingestRate / baselineRate;
    const share = second.ms / first.ms;
    const rows: Array<[string, string, string]> = [
      ['report', `${fixture.results} results, ${mib(fixture.bytes)} MiB SARIF`, ''],
      ['ingest wall time (through nginx)', `${(first.ms / 1000).toFixed(2)} s`, ''],
      ['ingest throughput', `${Math.round(ingestRate)} results/s`, ''],
      ['  findings new / duplicates', `${firstResult.findings.new} / ${firstResult.findings.duplicates}`, ''],
      ['baseline JSON.parse', `${(baseline.parseMs / 1000).toFixed(2)} s`, ''],
      ['baseline COPY', `${(baseline.copyMs / 1000).toFixed(2)} s (${baseline.rows} rows)`, ''],
      ['baseline throughput', `${Math.round(baselineRate)} results/s`, ''],
      ['ingest / baseline', `${(ratio * 100).toFixed(1)} %`, verdict(ratio >= TARGETS.ratio, '≥ 40 %')],
      ['callback plane RSS before', `${rss.startMiB.toFixed(0)} MiB`, ''],
      ['callback plane peak RSS (sampled)', `${memory.peakMiB.toFixed(0)} MiB`, verdict(memory.peakMiB <= TARGETS.rssMiB, '≤ 512 MiB')],
      ['callback plane VmHWM (lifetime)', `${memory.hwmMiB.toFixed(0)} MiB`, ''],
      ['second identical post', `${(second.ms / 1000).toFixed(2)} s = ${(share * 100).toFixed(1)} % of the first`, verdict(share <= TARGETS.secondPostShare, '≤ 20 %')],
      ['  new rows from the second post', String(newRowsSecond), verdict(newRowsSecond === 0, '0')],
      ['re-scan: same report, new scan', `${(third.ms / 1000).toFixed(2)} s = ${(third.ms / first.ms * 100).toFixed(1)} % of the first`, ''],
      ['  new / seen again / new rows', `${thirdResult.findings.new} / ${thirdResult.findings.seen_again} / ${newRowsThird}`, ''],
    ];
    const width = Math.max(...rows.map((row) => row[0].length));
    process.stdout.write('\nbench:ingest\n');
    for (const [label, value, check] of rows) process.stdout.write(`  ${label.padEnd(width)}  ${value}${check ? `   ${check}` : ''}\n`);
  } finally {
    await stack.stop();
    await db.close();
    await redis.cleanup();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function verdict(ok: boolean, target: string): string {
  return `${ok ? 'PASS' : 'MISS'} (target ${target})`;
}

/** Streams the file as the request body, printing upload progress; resolves with the answer and wall time. */
function post(baseUrl: string, scanId: string, token: string, file: string, key: string): Promise<{ status: number; body: string; ms: number }> {
  const size = statSync(file).size;
  const url = new URL(`/api/v2/callbacks/scans/${scanId}/tools/codeql-ext`, baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    let lastShown = -1;
    const req = http.request(
      url,
      { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/sarif+json', 'Content-Length': size, 'Idempotency-Key': key } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          process.stderr.write(`\r      answered ${res.statusCode} after ${(ms / 1000).toFixed(2)} s${' '.repeat(20)}\n`);
          resolve({ status: res.statusCode ?? 0, body, ms });
        });
      },
    );
    req.on('error', reject);
    const source = createReadStream(file, { highWaterMark: 1 << 20 });
    source.on('data', (chunk) => {
      sent += chunk.length;
      const pct = Math.floor((sent / size) * 100);
      if (pct !== lastShown && pct % 5 === 0) {
        lastShown = pct;
        process.stderr.write(`\r      uploaded ${pct}% (${mib(sent)} MiB, ${((performance.now() - started) / 1000).toFixed(1)} s); parsing and staging as it streams`);
      }
    });
    source.on('end', () => process.stderr.write('\r      body sent; waiting for the merge and commit…' + ' '.repeat(30)));
    source.pipe(req);
  });
}

main().catch((error) => {
  process.stderr.write(`bench:ingest failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
