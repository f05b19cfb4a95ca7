import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * The benchmark's report: a CodeQL-shaped SARIF 2.1.0 log filled with results up to just under
 * the 64 MiB callback cap. Results are realistic but compact (one location, a snippet, partial
 * fingerprints, a code flow on every tenth), so 64 MiB holds more than 100,000 of them.
 */
const RULES = ['js/sql-injection', 'js/xss', 'js/path-injection', 'js/prototype-pollution', 'js/unused-local-variable'];
const CWE = ['external/cwe/cwe-089', 'external/cwe/cwe-079', 'external/cwe/cwe-022', 'external/cwe/cwe-1321', 'maintainability'];

function result(n: number): object {
  const r = n % RULES.length;
  const uri = `src/m${n % 811}/f${n % 37}.js`;
  const line = 1 + (n % 4000);
  const out: Record<string, unknown> = {
    ruleId: RULES[r],
    ruleIndex: r,
    level: r === 4 ? 'note' : 'error',
    message: { text: `User-provided value ${n} reaches a sensitive sink without sanitisation.` },
    locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' }, region: { startLine: line, startColumn: 1 + (n % 60), endColumn: 70, snippet: { text: `db.query("SELECT * FROM t WHERE id=" + req.query.id${n % 100});` } } } }],
    partialFingerprints: { primaryLocationLineHash: `${((n * 2654435761) >>> 0).toString(16)}:${1 + (n % 3)}` },
  };
  if (n % 10 === 0) {
    out.codeFlows = [{ threadFlows: [{ locations: [0, 1].map((k) => ({ location: { physicalLocation: { artifactLocation: { uri }, region: { startLine: Math.max(1, line - 2 + k) } }, message: { text: k ? 'sink' : 'source' } } })) }] }];
  }
  return out;
}

/** Writes the log to `file`, stopping before `maxBytes`; returns the number of results and bytes. */
export async function writeSarifFixture(file: string, maxBytes: number, onProgress?: (bytes: number) => void): Promise<{ results: number; bytes: number }> {
  const rules = RULES.map((id, i) => ({ id, name: id.slice(3), shortDescription: { text: id }, properties: { tags: ['security', CWE[i]], 'security-severity': i === 4 ? '2.0' : String(6 + i) } }));
  const head = `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"CodeQL","semanticVersion":"2.15.0","rules":${JSON.stringify(rules)}}},"results":[\n`;
  const tail = '\n]}]}\n';
  const out = createWriteStream(file);
  let bytes = Buffer.byteLength(head);
  let pending = head;
  let n = 0;
  for (;;) {
    const piece = (n === 0 ? '' : ',\n') + JSON.stringify(result(n));
    if (bytes + Buffer.byteLength(piece) + tail.length > maxBytes) break;
    pending += piece;
    bytes += Buffer.byteLength(piece);
    n++;
    if (pending.length > 1 << 20) {
      if (!out.write(pending)) await once(out, 'drain');
      pending = '';
      onProgress?.(bytes);
    }
  }
  out.end(pending + tail);
  await once(out, 'finish');
  return { results: n, bytes: bytes + tail.length };
}
