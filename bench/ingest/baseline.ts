import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * The yardstick the ingest figure is compared with, in this process: JSON.parse of the whole file
 * (no streaming, no bound on memory), then a plain COPY of one row per result into a scratch
 * table with the same kind of columns ingest writes (text, jsonb). No fingerprints, no dedupe,
 * no upsert, no indexes, no history or outbox: the floor of "parse it and store it".
 */
export async function runBaseline(file: string, databaseUrl: string): Promise<{ rows: number; parseMs: number; copyMs: number; totalMs: number }> {
  const started = performance.now();
  const log = JSON.parse(readFileSync(file, 'utf8')) as { runs: Array<{ results: Array<Record<string, any>> }> };
  const parsed = performance.now();
  const results = log.runs.flatMap((run) => run.results);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS bench_baseline_scratch');
    await client.query('CREATE TABLE bench_baseline_scratch (rule_id text, severity text, title text, location jsonb, evidence jsonb, fingerprint text)');
    const copyStarted = performance.now();
    const stream = client.query(copyFrom('COPY bench_baseline_scratch FROM STDIN'));
    const finished = once(stream, 'finish');
    let pending = '';
    for (const r of results) {
      const loc = r.locations?.[0]?.physicalLocation ?? {};
      pending +=
        `${esc(r.ruleId)}\t${r.level === 'note' ? 'low' : 'high'}\t${esc(r.message?.text ?? '')}\t` +
        `${esc(JSON.stringify({ path: loc.artifactLocation?.uri, start_line: loc.region?.startLine }))}\t` +
        `${esc(JSON.stringify([{ kind: 'code_span', snippet: loc.region?.snippet?.text }]))}\t` +
        `${esc(r.partialFingerprints?.primaryLocationLineHash ?? '')}\n`;
      if (pending.length > 256 * 1024) {
        if (!stream.write(pending)) await once(stream, 'drain');
        pending = '';
      }
    }
    stream.end(pending);
    await finished;
    const done = performance.now();
    return { rows: results.length, parseMs: parsed - started, copyMs: done - copyStarted, totalMs: parsed - started + (done - copyStarted) };
  } finally {
    await client.query('DROP TABLE IF EXISTS bench_baseline_scratch').catch(() => undefined);
    await client.end();
  }
}

function esc(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}
