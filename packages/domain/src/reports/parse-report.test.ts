import { Readable } from 'node:stream';
import { ZNormalizedFinding } from '../findings/normalized-finding';
import { detectReportFormat, parseReportBuffer, parseReportStream } from './parse-report';
import type { TReportFormat } from './report-item';
import { corpusFiles, describeCorpus, parseCorpusFile } from './testing/corpus';

describe('detectReportFormat', () => {
  it('reads the format from the content type and X-Report-Format', () => {
    expect(detectReportFormat('application/sarif+json', undefined)).toBe('sarif');
    expect(detectReportFormat('Application/SARIF+JSON; charset=utf-8', null)).toBe('sarif');
    expect(detectReportFormat('application/vnd.cyclonedx+json; version=1.5', undefined)).toBe('cyclonedx');
    for (const f of ['palisade', 'trivy', 'grype', 'gitleaks', 'semgrep', 'npm-audit'] as const) expect(detectReportFormat('application/json', f)).toBe(f);
    expect(detectReportFormat('application/json', ['Trivy'])).toBe('trivy');
  });

  it('gives null for what it cannot name', () => {
    expect(detectReportFormat('application/json', undefined)).toBeNull();
    expect(detectReportFormat('application/json', 'nessus')).toBeNull();
    expect(detectReportFormat('application/sarif+json', 'trivy')).toBeNull();
    expect(detectReportFormat('text/plain', 'trivy')).toBeNull();
    expect(detectReportFormat(undefined, undefined)).toBeNull();
  });
});

describe('parseReportStream', () => {
  const body = JSON.stringify([{ RuleID: 'r', File: 'a', StartLine: 1, Secret: 'xxxxxxxx', Match: 'k=xxxxxxxx' }]);

  it('reads Node streams, async iterables of Buffers, strings and Uint8Arrays', async () => {
    const count = async (source: Parameters<typeof parseReportStream>[1]): Promise<number> => {
      let n = 0;
      for await (const _ of parseReportStream('gitleaks', source)) n++;
      return n;
    };
    expect(await count(Readable.from([Buffer.from(body.slice(0, 9)), Buffer.from(body.slice(9))]))).toBe(1);
    expect(await count([body.slice(0, 5), body.slice(5)])).toBe(1);
    expect(await count([new Uint8Array(Buffer.from(body))])).toBe(1);
  });

  it('reads UTF-8 with a byte-order mark, and UTF-16 (LE or BE, with its mark) even when split mid-character', async () => {
    const count = async (chunks: Buffer[]): Promise<number> => {
      let n = 0;
      for await (const _ of parseReportStream('gitleaks', chunks)) n++;
      return n;
    };
    expect(await count([Buffer.from('\ufeff' + body, 'utf8')])).toBe(1);
    const le = Buffer.from('\ufeff' + body, 'utf16le');
    expect(await count([le.subarray(0, 1), le.subarray(1, 7), le.subarray(7)])).toBe(1);
    const be = Buffer.from(le).swap16();
    expect(await count([be.subarray(0, 3), be.subarray(3)])).toBe(1);
  });

  it('stops with report_too_large past maxBytes', async () => {
    await expect(parseReportBuffer('gitleaks', body, { maxBytes: 10 })).rejects.toMatchObject({ code: 'report_too_large' });
  });

  it('rejects an unknown format', async () => {
    await expect(parseReportBuffer('nessus' as TReportFormat, '{}')).rejects.toMatchObject({ code: 'invalid_shape' });
  });

  it('uses the caller\'s tool name for every finding', async () => {
    const [item] = await parseReportBuffer('gitleaks', body, { tool: 'secret-scan' });
    expect(item.type === 'finding' && item.finding.tool).toBe('secret-scan');
  });
});

const FORMAT_OF_DIR: Record<string, TReportFormat> = {
  sarif: 'sarif',
  cyclonedx: 'cyclonedx',
  trivy: 'trivy',
  grype: 'grype',
  gitleaks: 'gitleaks',
  semgrep: 'semgrep',
  'npm-audit': 'npm-audit',
  'osv-scanner': 'osv-scanner',
};
/** Corpus files that are invalid on purpose, with the error they must produce. */
const EXPECTED_REJECTIONS: Record<string, string> = {
  'sarif/codeql-action_invalid-results-42.sarif': 'invalid_shape',
  'osv-scanner/dd_osv-scanner_empty-file.json': 'empty_report',
  'cyclonedx/cdx-spec_invalid-dependency-1.6.json': 'invalid_shape',
};

describeCorpus('every corpus report of a supported format', () => {
  // advisories-osv/ holds advisories (input to the SCA matcher), iac/ holds manifests: not reports.
  const cases = Object.entries(FORMAT_OF_DIR).flatMap(([dir, format]) => corpusFiles(dir).map((file) => [`${dir}/${file}`, format] as const));

  it('covers all eight report directories', () => {
    expect(cases.length).toBeGreaterThanOrEqual(88);
  });

  it.each(cases)('%s parses, and every finding is a valid normalized finding', async (path, format) => {
    const rejection = EXPECTED_REJECTIONS[path];
    if (rejection !== undefined) {
      await expect(parseCorpusFile(format, path)).rejects.toMatchObject({ name: 'ReportParseError', code: rejection });
      return;
    }
    const { findings, components } = await parseCorpusFile(format, path);
    for (const f of findings) {
      const parsed = ZNormalizedFinding.safeParse(f);
      if (!parsed.success) throw new Error(`${path}: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    }
    for (const c of components) expect(c.name.length).toBeGreaterThan(0);
  });
});
