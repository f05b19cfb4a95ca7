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

/**
 * Files that are not valid reports on purpose (MANIFEST.md): a clear 422 naming the offending
 * field, nothing written. The empty osv-scanner output is refused explicitly rather than read
 * as "no findings" (DefectDojo's 0), as an empty body is more likely a failed scan.
 */
const REFUSED: Record<string, string> = {
  'sarif/codeql-action_invalid-results-42.sarif': 'body.runs.0.results',
  'osv-scanner/dd_osv-scanner_empty-file.json': 'body',
  // Schema-invalid per CycloneDX's own test (invalid-dependency): dependencies[0] has no ref.
  'cyclonedx/cdx-spec_invalid-dependency-1.6.json': 'body.dependencies.0.ref',
};

/** Result counts MANIFEST.md states from the source's own tests, checked here through the API. */
const MANIFEST_RESULTS: Record<string, number> = {
  'sarif/dd_codeql-2.5.4_python.sarif': 72,
  'sarif/dd_spec-appendix-k-comprehensive.sarif': 1,
  'sarif/dd_gitleaks-7.sarif': 8,
  'sarif/dd_sarif-sdk_SuppressionTestCurrent.sarif': 4,
  'sarif/dd_spec-appendix-k1-minimal-empty.sarif': 0,
  'sarif/dd_spec-appendix-k1-two-runs-empty.sarif': 0,
  'sarif/dd_no-runs.sarif': 0,
  'sarif/codeql-action_tool-names-5-runs.sarif': 0,
  'sarif/gitleaks_v8_sarif_simple.sarif': 1,
  'sarif/sarif-tutorials_eslint_simple-example.sarif': 1,
  'sarif/dd_semgrep-0.17.0_owasp-benchmark.sarif': 1768,
  'cyclonedx/dd_trivy-0.48.1_cdx-1.5.json': 14,
  'cyclonedx/dd_grype-0.41.0_log4j_cdx-1.4.json': 8,
  'cyclonedx/dd_grype-0.41.0_log4j_nested-components_cdx-1.4.json': 8,
  'cyclonedx/dd_valid-vulnerability-1.4_vex-analysis.json': 1,
  'trivy/dd_trivy_legacy-list_debian-10.8.json': 93,
  'trivy/dd_trivy_legacy-null.json': 0,
  'trivy/dd_trivy_schema2_alpine.json': 5,
  'trivy/dd_trivy_k8s-cluster.json': 20,
  'trivy/dd_trivy_licenses.json': 19,
  'trivy/dd_trivy_cvss-severity-source_from-sbom.json': 2,
  'trivy/dd_trivy_k8s-resources_37-misconfigs.json': 37,
  'trivy/trivy_dockerfile_DS-0002.json': 1,
  'grype/dd_grype-0.7.0_no-vuln.json': 0,
  'grype/dd_grype-0.7.0_debian-image_327.json': 327,
  'grype/dd_grype-0.24.0_directory-npm.json': 9,
  'grype/dd_grype-0.96.0_rhel8-image.json': 35,
  'grype/dd_grype-0.94.0_epss.json': 15,
  'grype/dd_grype-0.75.0_fix-available.json': 1,
  'gitleaks/dd_gitleaks-v7-legacy_one.json': 1,
  'gitleaks/dd_gitleaks-v7-legacy_two.json': 2,
  'gitleaks/dd_gitleaks_null.json': 0,
  'gitleaks/gitleaks-8_json_simple.json': 1,
  'gitleaks/gitleaks-8_json_empty.json': 0,
  'semgrep/dd_semgrep_one-finding_java.json': 1,
  'semgrep/dd_semgrep_three-findings_java.json': 3,
  'semgrep/dd_semgrep_48-findings_python.json': 48,
  'semgrep/dd_semgrep-1.84.1_high-medium-low.json': 3,
  'semgrep/dd_semgrep-1.100.0_fingerprint-requires-login.json': 2,
  'semgrep/dd_semgrep_empty.json': 0,
  'npm-audit/dd_npm6_no-vuln.json': 0,
  'npm-audit/dd_npm6_five-advisories.json': 5,
  'npm-audit/dd_npm7_no-vuln.json': 0,
};

/**
 * Distinct findings MANIFEST.md states where the source merges repeated results (DefectDojo's
 * nb_occurences): the API's new findings, while `results` counts every result.
 */
const MANIFEST_FINDINGS: Record<string, number> = {
  'gitleaks/dd_gitleaks-7.5.0.json': 4,
  'gitleaks/dd_gitleaks-8_many.json': 3,
  'grype/dd_grype-0.28.0_check-all-fields.json': 5,
  'grype/dd_grype-0.36.0_same-cve-two-paths.json': 1,
  'semgrep/dd_semgrep_repeated-finding.json': 1,
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

    const refusedField = REFUSED[`${dir}/${name}`];
    expect(expected instanceof Error).toBe(refusedField !== undefined);
    if (expected instanceof Error) {
      expect(res.status).toBe(422);
      expect(res.body.error_code).toBe('invalid_report');
      expect(res.body.errors[0].field).toBe(refusedField);
      expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE last_seen_scan_id = $1', [scan.scanId])).toBe(0);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.findings.new).toBe(expected.size);
    const stated = MANIFEST_RESULTS[`${dir}/${name}`];
    if (stated !== undefined) expect(res.body.results).toBe(stated);
    const distinct = MANIFEST_FINDINGS[`${dir}/${name}`];
    if (distinct !== undefined) expect(res.body.findings.new).toBe(distinct);
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
