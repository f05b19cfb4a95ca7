import { parseReportBuffer } from '../reports/parse-report';
import { computeFingerprint, makeOccurrenceCounter, normalizeFindingPath } from './fingerprint';
import type { TNormalizedFinding } from './normalized-finding';

const base = (over: Partial<TNormalizedFinding> = {}): TNormalizedFinding => ({
  tool: 'codeql',
  rule: { id: 'js/xss', cwe: [], cve: [] },
  severity: 'high',
  title: 'XSS',
  location: { path: 'src/app.js', start_line: 10, start_column: 5 },
  evidence: [],
  ...over,
});
const fp = (finding: TNormalizedFinding, entityKey = 'repository:acme/web'): string => computeFingerprint({ entityKey, tool: finding.tool, finding });

const sarif = (results: object[]): string =>
  JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'CodeQL', rules: [{ id: 'js/xss' }, { id: 'js/sqli' }] } }, results }] });
const result = (ruleId: string, line: number, column?: number, extra: object = {}): object => ({
  ruleId,
  message: { text: `${ruleId} here` },
  locations: [{ physicalLocation: { artifactLocation: { uri: 'src/app.js' }, region: { startLine: line, ...(column === undefined ? {} : { startColumn: column }) } } }],
  ...extra,
});
async function fingerprintsOf(body: string): Promise<string[]> {
  const items = await parseReportBuffer('sarif', body);
  return items.flatMap((i) => (i.type === 'finding' ? [fp(i.finding)] : []));
}

describe('computeFingerprint', () => {
  it('is a sha256 hex digest and deterministic', () => {
    expect(fp(base())).toMatch(/^[0-9a-f]{64}$/);
    expect(fp(base())).toBe(fp(base()));
  });

  it('uses a SARIF fingerprint when present: the same hint is the same finding wherever the code moved', () => {
    const a = base({ fingerprint_hint: 'sarif:matchBasedId/v1=abc', location: { path: 'src/app.js', start_line: 10 } });
    const b = base({ fingerprint_hint: 'sarif:matchBasedId/v1=abc', location: { path: 'src/moved.js', start_line: 99 } });
    expect(fp(a)).toBe(fp(b));
    expect(fp(a)).not.toBe(fp(base({ fingerprint_hint: 'sarif:matchBasedId/v1=abd' })));
  });

  it('keeps entity, tool and rule in every identity', () => {
    const f = base({ fingerprint_hint: 'h' });
    expect(fp(f, 'repository:a')).not.toBe(fp(f, 'repository:b'));
    expect(computeFingerprint({ entityKey: 'e', tool: 'semgrep', finding: f })).not.toBe(computeFingerprint({ entityKey: 'e', tool: 'codeql', finding: f }));
    expect(fp(f)).not.toBe(fp({ ...f, rule: { ...f.rule, id: 'js/other' } }));
  });

  it('identifies a package vulnerability by package name, version and vulnerability id, not by where it was found', () => {
    const pkg = { name: 'log4j-core', version: '2.13.2', ecosystem: 'maven' };
    const a = base({ rule: { id: 'CVE-2021-44228', cwe: [], cve: [] }, location: { path: '/usr/lib/app.jar', package: pkg } });
    const b = base({ rule: { id: 'CVE-2021-44228', cwe: [], cve: [] }, location: { path: '/opt/other.jar', package: pkg } });
    expect(fp(a)).toBe(fp(b));
    expect(fp(a)).not.toBe(fp({ ...a, location: { package: { ...pkg, version: '2.17.0' } } }));
    expect(fp(a)).not.toBe(fp({ ...a, rule: { id: 'CVE-2021-45046', cwe: [], cve: [] } }));
  });

  it('falls back to the purl for a package without a version', () => {
    const a = base({ location: { package: { name: 'axios', purl: 'pkg:npm/axios' } } });
    const b = base({ location: { package: { name: 'axios', purl: 'pkg:npm/axios' } } });
    expect(fp(a)).toBe(fp(b));
  });

  it('normalizes the path: "./src\\app.js" and "src/app.js" are one place', () => {
    expect(fp(base({ location: { path: './src\\app.js', start_line: 10, start_column: 5 } }))).toBe(fp(base()));
    expect(normalizeFindingPath('.//a//b/')).toBe('a/b');
  });

  it('separates occurrences at one position', () => {
    expect(fp(base({ occurrence: 0 }))).not.toBe(fp(base({ occurrence: 1 })));
    expect(fp(base({ occurrence: 0 }))).toBe(fp(base()));
  });
});

describe('makeOccurrenceCounter', () => {
  it('numbers distinct results at one position and gives an exact repeat the first index', () => {
    const next = makeOccurrenceCounter();
    const f = base({ location: { path: 'a.js', start_line: 3 } });
    expect(next(f)).toBe(0);
    expect(next({ ...f, message: 'another issue on the same line' })).toBe(1);
    expect(next(f)).toBe(0);
    expect(next(base({ location: { path: 'a.js', start_line: 4 } }))).toBe(0);
  });
});

describe('fingerprints of parsed reports', () => {
  it('same rule twice on the same line at different columns → two fingerprints', async () => {
    const fps = await fingerprintsOf(sarif([result('js/xss', 10, 5), result('js/xss', 10, 30)]));
    expect(fps).toHaveLength(2);
    expect(new Set(fps).size).toBe(2);
  });

  it('same rule twice on a line without columns but with different messages → two fingerprints', async () => {
    const fps = await fingerprintsOf(sarif([result('js/xss', 10, undefined, { message: { text: 'first sink' } }), result('js/xss', 10, undefined, { message: { text: 'second sink' } })]));
    expect(new Set(fps).size).toBe(2);
  });

  it('re-ordered report → same fingerprints', async () => {
    const results = [result('js/xss', 10, 5), result('js/xss', 10, 30), result('js/sqli', 10, 5), result('js/xss', 42), result('js/sqli', 7, 1)];
    const forward = await fingerprintsOf(sarif(results));
    const backward = await fingerprintsOf(sarif([...results].reverse()));
    expect(backward.reverse()).toEqual(forward);
  });

  it('the same report posted twice → the same fingerprints', async () => {
    const body = sarif([result('js/xss', 10, 5), result('js/sqli', 11, 2)]);
    expect(await fingerprintsOf(body)).toEqual(await fingerprintsOf(body));
  });

  it('an exact duplicate result (e.g. the same run twice) → one fingerprint', async () => {
    const fps = await fingerprintsOf(sarif([result('js/xss', 10, 5), result('js/xss', 10, 5)]));
    expect(new Set(fps).size).toBe(1);
  });

  it('partialFingerprints win over the line: code moved down keeps its identity', async () => {
    const withHash = (line: number): object => result('js/xss', line, 5, { partialFingerprints: { primaryLocationLineHash: 'abc123:1' } });
    expect(await fingerprintsOf(sarif([withHash(10)]))).toEqual(await fingerprintsOf(sarif([withHash(11)])));
  });

  it('commit-only partialFingerprints (gitleaks) do not merge two leaks of one commit', async () => {
    const leak = (line: number): object => result('js/xss', line, 1, { partialFingerprints: { commitSha: 'c0ffee', author: 'a' } });
    const fps = await fingerprintsOf(sarif([leak(1), leak(2)]));
    expect(new Set(fps).size).toBe(2);
  });
});
