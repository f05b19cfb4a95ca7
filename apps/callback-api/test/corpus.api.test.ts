import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { computeFingerprint } from '@palisade/domain/findings/fingerprint';
import { parseReportBuffer } from '@palisade/domain/reports/parse-report';
import type { TReportFormat } from '@palisade/domain/reports/report-item';
import { countRows, createExternalScan, allFindings, postReport, startIngestHarness, type TIngestHarness } from './support/ingest-harness';

/**
 * Every report in the shared corpus, through the real callback route: the findings the API then
 * lists are exactly the distinct fingerprints the parsers yield for the file, a file the parsers
 * refuse is a 422 that writes nothing, and posting the same file again for a new scan of the same
 * entity adds nothing.
 */
const CORPUS = process.env.PALISADE_CORPUS_DIR ?? path.resolve(__dirname, '../../../../shared/corpus');

const BY_DIRECTORY: Record<string, { contentType: string; format: TReportFormat; header?: string }> = {
  sarif: { contentType: 'application/sarif+json', format: 'sarif' },
  cyclonedx: { contentType: 'application/vnd.cyclonedx+json', format: 'cyclonedx' },
  trivy: { contentType: 'application/json', format: 'trivy', header: 'trivy' },
  grype: { contentType: 'application/json', format: 'grype', header: 'grype' },
  gitleaks: { contentType: 'application/json', format: 'gitleaks', header: 'gitleaks' },
  semgrep: { contentType: 'application/json', format: 'semgrep', header: 'semgrep' },
  'npm-audit': { contentType: 'application/json', format: 'npm-audit', header: 'npm-audit' },
  'osv-scanner': { contentType: 'application/json', format: 'osv-scanner', header: 'osv-scanner' },
};

/** Files that are not valid reports on purpose (MANIFEST.md): a clear 422, nothing written. */
const REFUSED = new Set(['sarif/codeql-action_invalid-results-42.sarif', 'osv-scanner/dd_osv-scanner_empty-file.json']);

/** Result counts MANIFEST.md states from the source's own tests, checked here through the API. */
const MANIFEST_RESULTS: Record<string, number> = {
  'sarif/dd_codeql-2.5.4_python.sarif': 72,
  'sarif/dd_gitleaks-7.sarif': 8,
  'sarif/dd_sarif-sdk_SuppressionTestCurrent.sarif': 4,
  'sarif/dd_spec-appendix-k1-minimal-empty.sarif': 0,
  'sarif/dd_no-runs.sarif': 0,
  'trivy/dd_trivy_legacy-list_debian-10.8.json': 93,
  'trivy/dd_trivy_legacy-null.json': 0,
  'trivy/dd_trivy_k8s-resources_37-misconfigs.json': 37,
  'semgrep/dd_semgrep_48-findings_python.json': 48,
  'semgrep/dd_semgrep_empty.json': 0,
};

const files = Object.keys(BY_DIRECTORY).flatMap((dir) =>
  readdirSync(path.join(CORPUS, dir))
    .sort()
    .map((name) => ({ dir, name, file: path.join(CORPUS, dir, name) })),
);

async function expectedFingerprints(body: Buffer, format: TReportFormat, tool: string, entityKey: string): Promise<Set<string> | Error> {
  try {
    const items = await parseReportBuffer(format, body, { tool });
    const fingerprints = new Set<string>();
    for (const item of items) if (item.type === 'finding') fingerprints.add(computeFingerprint({ entityKey, tool, finding: item.finding }));
    return fingerprints;
  } catch (error) {
    return error as Error;
  }
}

describe('the shared corpus through the callback plane', () => {
  let h: TIngestHarness;
  const tenant = () => ({ orgId: h.orgId, token: h.token });

  beforeAll(async () => {
    h = await startIngestHarness();
  });
  afterAll(() => h?.close());

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(80);
  });

  it.each(files.map((f) => [`${f.dir}/${f.name}`, f] as const))('%s', async (_label, { dir, name, file }) => {
    const kind = BY_DIRECTORY[dir];
    const body = readFileSync(file);
    const tool = `corpus-${dir}`;
    const target = { kind: 'other' as const, name: `corpus/${dir}/${name}` };
    const scan = await createExternalScan(h.planes, tenant(), { tools: [tool], target });
    const expected = await expectedFingerprints(body, kind.format, tool, `project_version:${target.name}`);
    const options = { contentType: kind.contentType, format: kind.header };
    const res = await postReport(h.planes, scan, tool, body, { ...options, key: 'corpus-1' });

    expect(expected instanceof Error).toBe(REFUSED.has(`${dir}/${name}`));
    if (expected instanceof Error) {
      expect(res.status).toBe(422);
      expect(res.body.error_code).toBe('invalid_report');
      expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE last_seen_scan_id = $1', [scan.scanId])).toBe(0);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.findings.new).toBe(expected.size);
    const stated = MANIFEST_RESULTS[`${dir}/${name}`];
    if (stated !== undefined) expect(res.body.results).toBe(stated);
    const listed = await allFindings(h.planes, tenant(), { scan_id: scan.scanId });
    expect(listed).toHaveLength(expected.size);
    expect(new Set(listed.map((item) => item.fingerprint))).toEqual(expected);

    // The same post again is answered from the receipt; a re-scan of the entity adds nothing.
    const replay = await postReport(h.planes, scan, tool, body, { ...options, key: 'corpus-1' }).expect(200);
    expect(replay.body).toEqual(res.body);
    const rescan = await createExternalScan(h.planes, tenant(), { tools: [tool], target });
    const again = await postReport(h.planes, rescan, tool, body, options).expect(200);
    expect(again.body.findings).toMatchObject({ new: 0, seen_again: expected.size, fixed: 0 });
    expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE org_id = $1 AND entity_id = $2', [h.orgId, target.name])).toBe(expected.size);
  });
});
