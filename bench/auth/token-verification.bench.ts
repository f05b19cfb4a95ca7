// What token verification adds to a request (Issue 3 "Figures": < 0.2 ms at p99, against the same
// request without auth, same run). Two identical diagnostic routes on the read plane, one behind
// bearer verification, called over one keep-alive connection. Every round makes four calls in a
// random order:
//   baseline   the route without auth
//   A/A        the same route without auth again: the noise floor of a per-pair delta
//   cached     the authenticated route with the same token every time, as a client does for the
//              15 minutes a token lives (the verified-token cache answers)
//   unseen     the authenticated route with a token the read plane has never seen (pre-issued,
//              one per request): the full RS256 check, signature and claims
// so all series share the process, the machine and its load. Then verify() is timed alone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser, ensureTemplateDatabase, startTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../apps/read-api/src/app';
import { buildWriteApi } from '../../apps/write-api/src/app';
import { fmtMs, pairedDeltas, peakRssMiB, progress, shuffle, stage, summarize } from '../lib/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const DIRECT_UNSEEN = 1000;
const TARGET_ADDED_P99_MS = 0.2;

type TSeries = 'baseline' | 'aa' | 'cached' | 'unseen';

async function main(): Promise<void> {
  stage('starting the write and read planes');
  await ensureTemplateDatabase();
  const planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi }, { DIAGNOSTICS_ENABLED: 'true' });
  const server = planes.app('read').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const user = await createUser(planes.db);
    const issuer = planes.plane('write').runtime.auth.accessTokens;
    const verifier = planes.plane('read').runtime.auth.accessTokens;
    const issue = async () => (await issuer.issue({ kind: 'human', id: user.id, isPlatformAdmin: false })).token;

    // Issued by the write plane before anything is measured; the read plane sees each exactly once.
    const cachedToken = await issue();
    const fresh: string[] = [];
    const needed = WARMUP + ROUNDS + DIRECT_UNSEEN;
    for (let i = 1; i <= needed; i++) {
      fresh.push(await issue());
      progress('issuing distinct tokens', i, needed);
    }
    if (new Set(fresh).size !== fresh.length) throw new Error('issued tokens are not distinct');

    const call = (path: string, token?: string) =>
      new Promise<number>((resolve, reject) => {
        const started = process.hrtime.bigint();
        const headers = token ? { Authorization: `Bearer ${token}` } : {};
        const req = http.get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`HTTP ${res.statusCode} on ${path}`))));
        });
        req.on('error', reject);
      });
    let nextFresh = 0;
    const request: Record<TSeries, () => Promise<number>> = {
      baseline: () => call('/api/v2/diagnostics/echo'),
      aa: () => call('/api/v2/diagnostics/echo'),
      cached: () => call('/api/v2/diagnostics/echo-authenticated', cachedToken),
      unseen: () => call('/api/v2/diagnostics/echo-authenticated', fresh[nextFresh++]),
    };
    const order: TSeries[] = ['baseline', 'aa', 'cached', 'unseen'];

    for (let i = 1; i <= WARMUP; i++) {
      for (const series of shuffle(order)) await request[series]();
      progress('warm-up rounds', i, WARMUP);
    }
    const samples: Record<TSeries, number[]> = { baseline: [], aa: [], cached: [], unseen: [] };
    for (let i = 1; i <= ROUNDS; i++) {
      for (const series of shuffle(order)) samples[series].push(await request[series]());
      progress('measured rounds (4 requests each)', i, ROUNDS);
    }

    stage('timing verify() alone');
    const direct: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = process.hrtime.bigint();
      await verifier.verify(cachedToken);
      direct.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const firstSight: number[] = [];
    for (const token of fresh.slice(nextFresh)) {
      const started = process.hrtime.bigint();
      await verifier.verify(token);
      firstSight.push(Number(process.hrtime.bigint() - started) / 1e6);
    }

    const base = summarize(samples.baseline);
    const rps = (mean: number) => `${(1000 / mean).toFixed(0)} req/s`;
    const row = (label: string, text: string) => console.log(`  ${label.padEnd(42)}${text}`);
    const verdict = (added: number) => (added < TARGET_ADDED_P99_MS ? 'met' : 'NOT met');

    console.log('\ntoken verification benchmark (read plane in this process, one keep-alive connection, 4 requests a round in random order)');
    row('rounds', `${ROUNDS} measured after ${WARMUP} warm-up; ${fresh.length} distinct tokens issued`);
    row('baseline (no auth)', `p50 ${fmtMs(base.p50)}  p99 ${fmtMs(base.p99)}  ${rps(base.mean)}`);
    const aa = summarize(pairedDeltas(samples.baseline, samples.aa));
    row('A/A: no auth vs no auth', `per-pair delta p50 ${fmtMs(aa.p50)}  p99 ${fmtMs(aa.p99)}  (noise floor of a delta)`);
    const verdicts: string[] = [];
    for (const [series, label] of [
      ['cached', 'same token every request (cached)'],
      ['unseen', 'new token every request (full RS256)'],
    ] as const) {
      const s = summarize(samples[series]);
      const d = summarize(pairedDeltas(samples.baseline, samples[series]));
      console.log(`\n  ${label}`);
      row('  with auth', `p50 ${fmtMs(s.p50)}  p99 ${fmtMs(s.p99)}  ${rps(s.mean)}`);
      row('  added: difference of percentiles', `p50 ${fmtMs(s.p50 - base.p50)}  p99 ${fmtMs(s.p99 - base.p99)}  → p99 < ${TARGET_ADDED_P99_MS} ms ${verdict(s.p99 - base.p99)}`);
      row('  added: percentiles of pair deltas', `p50 ${fmtMs(d.p50)}  p99 ${fmtMs(d.p99)}  → p99 < ${TARGET_ADDED_P99_MS} ms ${verdict(d.p99)}`);
      row('  ratio auth / baseline', `p50 ${(s.p50 / base.p50).toFixed(3)}  p99 ${(s.p99 / base.p99).toFixed(3)}`);
      verdicts.push(`${series}: ${verdict(s.p99 - base.p99)} (difference of p99s), ${verdict(d.p99)} (p99 of pair deltas)`);
    }
    const v = summarize(direct);
    const f = summarize(firstSight);
    console.log('');
    row('verify() alone, repeated token', `p50 ${fmtMs(v.p50)}  p99 ${fmtMs(v.p99)}  (${direct.length} calls)`);
    row('verify() alone, unseen tokens', `p50 ${fmtMs(f.p50)}  p99 ${fmtMs(f.p99)}  (${firstSight.length} tokens)`);
    row('peak RSS (this process, planes included)', `${peakRssMiB().toFixed(1)} MiB`);
    for (const line of verdicts) row('verdict', line);
  } finally {
    agent.destroy();
    server.close();
    await planes.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
