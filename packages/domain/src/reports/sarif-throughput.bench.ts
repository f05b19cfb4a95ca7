/**
 * Parse-only throughput of a synthetic ~64 MiB SARIF log (CodeQL-like results) against plain
 * JSON.parse of the same bytes, and peak heap while streaming a log that never exists whole.
 *
 *   cd /work/main && npx tsx --conditions=palisade-source --expose-gc packages/domain/src/reports/sarif-throughput.bench.ts
 *
 * tsx adds per-call overhead (export getters, keepNames); for production-like numbers bundle it:
 *   node_modules/.bin/esbuild --bundle --platform=node --conditions=palisade-source \
 *     packages/domain/src/reports/sarif-throughput.bench.ts --outfile=/tmp/sarif-bench.js && node --expose-gc /tmp/sarif-bench.js
 *
 * Not a test (no *.test.ts suffix): numbers depend on the machine.
 */
import { JsonSplitter } from './json-splitter';
import { parseReportStream } from './parse-report';
import { resultsForBytes, syntheticSarif } from './testing/synthetic-sarif';

const MiB = 1024 * 1024;

function time<T>(fn: () => T): { ms: number; value: T } {
  const t = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function main(): Promise<void> {
  const count = resultsForBytes(64 * MiB);
  const chunks = [...syntheticSarif(count)];
  const whole = Buffer.concat(chunks);
  const mb = whole.length / MiB;
  console.log(`synthetic SARIF: ${mb.toFixed(1)} MiB, ${count} results, ${chunks.length} chunks of ~64 KiB`);
  const rows: string[] = [];
  const samples = new Map<string, number[]>();
  const report = (name: string, ms: number, results: number): void => {
    samples.set(name, [...(samples.get(name) ?? []), ms]);
    rows.push(`${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms ${(mb / (ms / 1000)).toFixed(1).padStart(7)} MiB/s ${Math.round(results / (ms / 1000)).toString().padStart(9)} results/s`);
  };
  const ROUNDS = 5;

  for (let round = 0; round < ROUNDS; round++) {
    rows.length = 0;
    gc();
    const jp = time(() => (JSON.parse(whole.toString('utf8')) as { runs: { results: unknown[] }[] }).runs[0].results.length);
    report('JSON.parse (whole file, baseline)', jp.ms, jp.value);
    gc();
    const jc = time(() => {
      const doc = JSON.parse(whole.toString('utf8')) as { runs: { results: unknown[] }[] };
      // The "+ copy" half of the baseline: touching every result once, as a COPY row would.
      let n = 0;
      for (const r of doc.runs[0].results) n += JSON.stringify(r).length > 0 ? 1 : 0;
      return n;
    });
    report('JSON.parse + per-result copy (stringify)', jc.ms, jc.value);
    gc();
    const sp = time(() => {
      let n = 0;
      const s = new JsonSplitter(
        (path) => (path.length <= 1 ? (path[0] === undefined || path[0] === 'runs' ? 'stream' : 'capture') : path.length === 2 ? 'stream' : path.length === 3 ? (path[2] === 'results' ? 'stream' : 'capture') : 'capture'),
        (ev) => {
          if (ev.type === 'value' && ev.path.length === 4) n++;
        },
      );
      for (const c of chunks) s.write(c);
      s.end();
      return n;
    });
    report('JsonSplitter only (split + JSON.parse each)', sp.ms, sp.value);
    gc();
    const full = await timeAsync(async () => {
      let n = 0;
      for await (const item of parseReportStream('sarif', chunks)) if (item.type === 'finding') n++;
      return n;
    });
    report('parseReportStream (normalized findings)', full.ms, full.value);
    console.log(`round ${round + 1}\n  ${rows.join('\n  ')}`);
    console.log(`  parseReportStream / JSON.parse = ${((jp.ms / full.ms) * 100).toFixed(0)}%, / (JSON.parse + copy) = ${((jc.ms / full.ms) * 100).toFixed(0)}%`);
  }

  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`median of ${ROUNDS} rounds:`);
  for (const [name, ms] of samples) {
    const m = median(ms);
    console.log(`  ${name.padEnd(44)} ${m.toFixed(0).padStart(6)} ms ${(mb / (m / 1000)).toFixed(1).padStart(7)} MiB/s ${Math.round(count / (m / 1000)).toString().padStart(9)} results/s`);
  }

  // Flat memory: stream a log that is generated lazily, sample heap as findings go by.
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let n = 0;
  async function* lazy(): AsyncGenerator<Buffer> {
    for (const c of syntheticSarif(count * 2)) yield c;
  }
  for await (const item of parseReportStream('sarif', lazy())) {
    if (item.type === 'finding' && ++n % 2000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  console.log(`streaming ${n} results (~${(2 * mb).toFixed(0)} MiB, generated lazily): heap before ${(base / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB`);
}

void main();
