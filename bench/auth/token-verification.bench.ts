// What token verification adds to a request. Two identical diagnostic routes on the read plane,
// one behind bearer verification, are called alternately over one keep-alive connection, so both
// series see the same process, the same machine load and the same run. Also times verify() alone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser, ensureTemplateDatabase, startTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../apps/read-api/src/app';
import { buildWriteApi } from '../../apps/write-api/src/app';
import { fmtMs, peakRssMiB, progress, summarize } from '../lib/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5000);
const WARMUP = 500;
const TARGET_ADDED_P99_MS = 0.2;

async function main(): Promise<void> {
  await ensureTemplateDatabase();
  const planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi }, { DIAGNOSTICS_ENABLED: 'true' });
  const server = planes.app('read').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const user = await createUser(planes.db);
    const { token } = await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const call = (path: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const started = process.hrtime.bigint();
        const req = http.get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`HTTP ${res.statusCode} on ${path}`))));
        });
        req.on('error', reject);
      });
    const auth = { Authorization: `Bearer ${token}` };

    for (let i = 0; i < WARMUP; i++) {
      await call('/api/v2/diagnostics/echo');
      await call('/api/v2/diagnostics/echo-authenticated', auth);
    }
    const plain: number[] = [];
    const verified: number[] = [];
    for (let i = 1; i <= ROUNDS; i++) {
      plain.push(await call('/api/v2/diagnostics/echo'));
      verified.push(await call('/api/v2/diagnostics/echo-authenticated', auth));
      progress('requests', i, ROUNDS);
    }

    const verifier = planes.plane('read').runtime.auth.accessTokens;
    const direct: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = process.hrtime.bigint();
      await verifier.verify(token);
      direct.push(Number(process.hrtime.bigint() - started) / 1e6);
    }

    // The first sight of a token: the full RS256 check, before the verified-token cache has it.
    const FIRST_SIGHT = 1000;
    const unseen: string[] = [];
    for (let i = 0; i < FIRST_SIGHT; i++) {
      unseen.push((await planes.plane('write').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false })).token);
      progress('issuing tokens', i + 1, FIRST_SIGHT);
    }
    const firstSight: number[] = [];
    for (const fresh of unseen) {
      const started = process.hrtime.bigint();
      await verifier.verify(fresh);
      firstSight.push(Number(process.hrtime.bigint() - started) / 1e6);
    }

    const a = summarize(plain);
    const b = summarize(verified);
    const v = summarize(direct);
    const f = summarize(firstSight);
    const addedP50 = b.p50 - a.p50;
    const addedP99 = b.p99 - a.p99;
    console.log('\ntoken verification benchmark (read plane, one keep-alive connection, alternating)');
    console.log(`  requests per series        ${ROUNDS}`);
    console.log(`  baseline (no auth)         p50 ${fmtMs(a.p50)}  p99 ${fmtMs(a.p99)}  throughput ${(1000 / (plain.reduce((s, x) => s + x, 0) / plain.length)).toFixed(0)} req/s`);
    console.log(`  with RS256 verification    p50 ${fmtMs(b.p50)}  p99 ${fmtMs(b.p99)}  throughput ${(1000 / (verified.reduce((s, x) => s + x, 0) / verified.length)).toFixed(0)} req/s`);
    console.log(`  added by auth              p50 ${fmtMs(addedP50)}  p99 ${fmtMs(addedP99)}  (target p99 < ${TARGET_ADDED_P99_MS} ms)`);
    console.log(`  verify() alone, repeated   p50 ${fmtMs(v.p50)}  p99 ${fmtMs(v.p99)}  (verified-token cache)`);
    console.log(`  verify() of a new token    p50 ${fmtMs(f.p50)}  p99 ${fmtMs(f.p99)}  (full RS256 check, ${FIRST_SIGHT} tokens)`);
    console.log(`  ratio (auth / baseline)    p50 ${(b.p50 / a.p50).toFixed(3)}  p99 ${(b.p99 / a.p99).toFixed(3)}`);
    console.log(`  peak RSS                   ${peakRssMiB().toFixed(1)} MiB`);
    console.log(`  verdict                    ${addedP99 < TARGET_ADDED_P99_MS ? 'MET' : 'NOT MET'}`);
    agent.destroy();
  } finally {
    server.close();
    await planes.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
