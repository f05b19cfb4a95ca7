import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { ReportParseError } from './report-parse-error';
import type { TReportFormat } from './report-item';
import { CORPUS_DIR, corpusFiles, describeCorpus } from './testing/corpus';

/**
 * Hostile or malformed reports: values of the wrong type anywhere (seeded, reproducible
 * mutations of real reports) must end either in valid findings or in a ReportParseError, never
 * in another exception (which callback-api would have to answer with a 500).
 */
const FORMATS: Record<string, TReportFormat> = { sarif: 'sarif', cyclonedx: 'cyclonedx', trivy: 'trivy', grype: 'grype', gitleaks: 'gitleaks', semgrep: 'semgrep', 'npm-audit': 'npm-audit', 'osv-scanner': 'osv-scanner' };
const TOKENS = ['null', '0', '-1', '1e400', '1e300', '"x"', '""', '[]', '{}', 'true', '[null]', '{"a":null}', '"%E0%A4%A"', '"urn:cdx:x#%zz"'];

function mutate(text: string, rnd: () => number): string {
  let t = text;
  for (let m = 0; m < 3; m++) {
    const re = /[:[,]\s*/g;
    re.lastIndex = Math.floor(rnd() * t.length);
    const hit = re.exec(t);
    if (hit === null) continue;
    const start = hit.index + hit[0].length;
    let depth = 0;
    let inString = false;
    let i = start;
    for (; i < t.length; i++) {
      const c = t[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) break;
        if (--depth === 0) {
          i++;
          break;
        }
      } else if (c === ',' && depth === 0) break;
    }
    t = t.slice(0, start) + TOKENS[Math.floor(rnd() * TOKENS.length)] + t.slice(i);
  }
  return t;
}

describe('hand-made malformed reports, every format', () => {
  const ALL: TReportFormat[] = ['sarif', 'cyclonedx', 'palisade', 'trivy', 'grype', 'gitleaks', 'semgrep', 'npm-audit', 'osv-scanner'];
  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
  const BODIES: [string, string | Buffer][] = [
    ['empty', ''],
    ['whitespace only', ' \n\t '],
    ['not JSON', '<?xml version="1.0"?><bom/>'],
    ['truncated object', '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"'],
    ['two documents', '{} {}'],
    ['trailing garbage', '{"results": []} x'],
    ['a number', '42'],
    ['a string', '"report"'],
    ['true', 'true'],
    ['NDJSON', '{"a":1}\n{"a":2}\n'],
    ['deep nesting', `{"x": ${deep(20000)}, "results": ${deep(20000)}, "runs": ${deep(20000)}, "matches": ${deep(20000)}}`],
    ['deep array', deep(20000)],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
    ['UTF-16 with BOM', Buffer.from('\ufeff{"results": []}', 'utf16le')],
    ['NUL bytes', '{"results": [\u0000]}'],
    ['huge number', '{"matches": [], "runs": [], "results": [], "SchemaVersion": 1e999999}'],
    ['wrong types everywhere', '{"version": 2.1, "runs": "x", "results": {}, "matches": 7, "vulnerabilities": "x", "components": 1, "Results": "x", "advisories": [], "bomFormat": ["CycloneDX"]}'],
  ];

  it.each(ALL.flatMap((format) => BODIES.map(([label, body]) => [format, label, body] as const)))('%s, %s: a ReportParseError or valid findings, never a crash', async (format, _label, body) => {
    try {
      for (const item of await parseReportBuffer(format, body)) {
        if (item.type === 'finding') expect(ZNormalizedFinding.safeParse(item.finding).success).toBe(true);
      }
    } catch (err) {
      if (!(err instanceof ReportParseError)) throw err;
      expect(err.toJSON().code).toMatch(/^[a-z_]+$/);
    }
  });

  it('drops line and column numbers a JSON number holds but the model does not (beyond the safe integers)', async () => {
    const huge = 1e300;
    const region = { startLine: huge, endLine: 2 ** 53, startColumn: huge, endColumn: 3 };
    const reports: Array<[TReportFormat, string]> = [
      ['sarif', JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results: [{ ruleId: 'r', message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a.js' }, region } }] }] }] })],
      ['semgrep', JSON.stringify({ results: [{ check_id: 'r', path: 'a.py', start: { line: huge, col: huge }, end: { line: 2 ** 53, col: 3 }, extra: { message: 'm', severity: 'ERROR' } }] })],
      ['gitleaks', JSON.stringify([{ RuleID: 'r', Description: 'd', File: 'a.env', StartLine: huge, EndLine: huge, StartColumn: 1, EndColumn: 2, Secret: 'x', Match: 'x' }])],
    ];
    for (const [format, body] of reports) {
      const [item] = await parseReportBuffer(format, body);
      if (item.type !== 'finding') throw new Error(`${format}: no finding`);
      expect(ZNormalizedFinding.safeParse(item.finding).success).toBe(true);
      expect(item.finding.location.start_line).toBeUndefined();
      expect(item.finding.location.end_line).toBeUndefined();
    }
  });

  it('says so when a body starts with log output, and only then', async () => {
    const refusal = async (format: TReportFormat, body: string | Buffer) => parseReportBuffer(format, body).then(() => undefined, (e: ReportParseError) => e.toJSON());
    const LOGGED: Array<[TReportFormat, string, string]> = [
      ['grype', '[0000]  INFO grype version: 0.74.0\n{"matches": []}', '[0000]  INFO grype version: 0.74.0'],
      ['trivy', '2024-05-01T10:00:00.000Z\tINFO\tNeed to update DB\n{"SchemaVersion": 2}', '2024-05-01T10:00:00.000Z\tINFO\tNeed to update DB'],
      ['sarif', '\ufeff  Scanning 12 files...\r\n{"version": "2.1.0", "runs": []}', 'Scanning 12 files...'],
      ['semgrep', '\u001b[32m✔\u001b[0m done\n{"results": []}', '\u001b[32m✔\u001b[0m done'],
      ['grype', ' ✔ Vulnerability DB                [no update available]\n{"matches": []}', '✔ Vulnerability DB                [no update available]'],
      ['trivy', '47.33 MiB / 47.33 MiB [------] 100.00% 6.02 MiB p/s 8.1s\n{"SchemaVersion": 2}', '47.33 MiB / 47.33 MiB [------] 100.00% 6.02 MiB p/s 8.1s'],
    ];
    for (const [format, body, line] of LOGGED) {
      const error = await refusal(format, body);
      expect(error).toMatchObject({ code: 'invalid_json', pointer: '' });
      expect(error?.message).toContain(`starts with ${JSON.stringify(line)}, which looks like log output`);
    }
    // Broken or unexpected JSON keeps its own explanation.
    expect(await refusal('grype', '[1, 2]')).toMatchObject({ code: 'invalid_shape', message: 'a Grype report must be a JSON object' });
    expect(await refusal('sarif', '{"version": "2.1.0", "runs": [}')).toMatchObject({ code: 'invalid_json', message: expect.not.stringContaining('log output') });
    expect(await refusal('trivy', 'true x')).toMatchObject({ message: expect.not.stringContaining('log output') });
    expect(await refusal('semgrep', '<?xml version="1.0"?>')).toMatchObject({ code: 'invalid_json', message: expect.not.stringContaining('log output') });
    expect(await refusal('grype', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x7b]))).toMatchObject({ message: expect.not.stringContaining('log output') });
    expect(await refusal('trivy', '2.5')).toMatchObject({ message: expect.not.stringContaining('log output') });
  });

  it('answers each kind of breakage with its own code', async () => {
    const code = async (format: TReportFormat, body: string) => parseReportBuffer(format, body).then(() => 'ok', (e: ReportParseError) => e.code);
    expect(await code('trivy', '')).toBe('empty_report');
    expect(await code('grype', '{"matches": [')).toBe('truncated_report');
    expect(await code('semgrep', '{"results": [}')).toBe('invalid_json');
    expect(await code('sarif', '{"version": "3.0.0", "runs": []}')).toBe('unsupported_version');
    expect(await code('osv-scanner', '[]')).toBe('invalid_shape');
  });
});

describeCorpus('robustness against malformed reports', () => {
  const cases = Object.entries(FORMATS).flatMap(([dir, format]) => corpusFiles(dir).map((file) => [`${dir}/${file}`, format] as const));

  it.each(cases)('%s: mutated copies give valid findings or a ReportParseError', async (path, format) => {
    const text = readFileSync(join(CORPUS_DIR, path), 'utf8');
    if (text.length > 300_000) return;
    let seed = path.length * 7919;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 12; k++) {
      try {
        for (const item of await parseReportBuffer(format, mutate(text, rnd))) {
          if (item.type === 'finding') expect(ZNormalizedFinding.safeParse(item.finding).success).toBe(true);
        }
      } catch (err) {
        if (!(err instanceof ReportParseError)) throw err;
      }
    }
  });
});
