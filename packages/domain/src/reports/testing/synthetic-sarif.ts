/**
 * Synthetic SARIF logs for tests and the throughput benchmark: realistic result objects
 * (CodeQL-like: rule index, region, snippet, partial fingerprints, some code flows) in any
 * number, produced lazily so a 64 MiB log never has to exist in memory at once.
 */
const RULES = ['js/sql-injection', 'js/xss', 'js/path-injection', 'js/unused-local-variable', 'js/prototype-pollution'];
const CWES = ['external/cwe/cwe-089', 'external/cwe/cwe-079', 'external/cwe/cwe-022', 'maintainability', 'external/cwe/cwe-1321'];

function rule(i: number): object {
  return {
    id: RULES[i],
    name: RULES[i].replace('js/', ''),
    shortDescription: { text: `Rule ${RULES[i]}` },
    defaultConfiguration: { level: i === 3 ? 'note' : 'error' },
    properties: { tags: ['security', CWES[i]], 'security-severity': i === 3 ? undefined : String(5 + i) },
  };
}

export function syntheticResult(n: number): object {
  const r = n % RULES.length;
  const file = `src/module-${n % 997}/file-${n % 31}.js`;
  const line = 1 + (n % 5000);
  const result: Record<string, unknown> = {
    ruleId: RULES[r],
    ruleIndex: r,
    level: r === 3 ? 'note' : 'error',
    message: { text: `This query depends on a [user-provided value](1) number ${n} which flows to a sink without sanitisation.` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: file, uriBaseId: '%SRCROOT%', index: n % 997 },
          region: { startLine: line, startColumn: 5 + (n % 40), endColumn: 60, snippet: { text: `  const q = "SELECT * FROM t WHERE id = " + req.query.id${n};` } },
        },
      },
    ],
    partialFingerprints: { primaryLocationLineHash: `${(n * 2654435761 >>> 0).toString(16)}c0ffee:1`, primaryLocationStartColumnFingerprint: String(n % 40) },
    relatedLocations: [{ id: 1, physicalLocation: { artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, line - 3), startColumn: 12, endColumn: 24 } }, message: { text: 'user-provided value' } }],
  };
  if (n % 4 === 0) {
    result.codeFlows = [
      {
        threadFlows: [
          {
            locations: [0, 1, 2].map((k) => ({
              location: {
                physicalLocation: { artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, line - 3 + k), startColumn: 3, endColumn: 30 } },
                message: { text: k === 0 ? 'req.query.id' : k === 1 ? 'q' : 'query(q)' },
              },
            })),
          },
        ],
      },
    ];
  }
  return result;
}

/** Yields a SARIF 2.1.0 log with `count` results in one run, in pieces of roughly `pieceBytes`. */
export function* syntheticSarif(count: number, pieceBytes = 64 * 1024): Generator<Buffer> {
  const head =
    '{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"CodeQL","semanticVersion":"2.15.0","rules":' +
    JSON.stringify(RULES.map((_, i) => rule(i))) +
    '}},"results":[\n';
  let pending = head;
  for (let n = 0; n < count; n++) {
    pending += (n === 0 ? '' : ',\n') + JSON.stringify(syntheticResult(n));
    if (pending.length >= pieceBytes) {
      yield Buffer.from(pending, 'utf8');
      pending = '';
    }
  }
  pending += '\n],"columnKind":"utf16CodeUnits"}]}\n';
  yield Buffer.from(pending, 'utf8');
}

/** The number of results that makes a synthetic log of about `bytes`. */
export function resultsForBytes(bytes: number): number {
  let sample = 0;
  for (let n = 0; n < 20; n++) sample += JSON.stringify(syntheticResult(n)).length + 2;
  return Math.floor(bytes / (sample / 20));
}
