import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

const fp = (f: TNormalizedFinding): string => computeFingerprint({ entityKey: 'repository:x', tool: f.tool, finding: f });

describeCorpus('OSV-Scanner corpus (facts from MANIFEST.md)', () => {
  it('66 vulnerability records in 37 alias groups → 37 findings; guzzle and django facts DefectDojo asserts', async () => {
    const { findings } = await parseCorpusFile('osv-scanner', 'osv-scanner/dd_osv-scanner_66-findings.json');
    expect(findings).toHaveLength(37);
    const guzzle = findings.find((f) => f.rule.cve.includes('CVE-2022-31090'));
    expect(guzzle).toMatchObject({ severity: 'high', location: { path: '/tmpcardmarket-api/composer.lock', package: { name: 'guzzlehttp/guzzle' } } });
    const django = findings.find((f) => f.location.package?.name === 'django' && f.rule.name !== undefined && f.evidence.some((e) => e.kind === 'dependency_path' && e.fixed_versions?.includes('2.2.26')));
    expect(django).toBeDefined();
  });

  it('malicious package: MAL-2023-1035 on flot-axis, CWE-506, critical', async () => {
    const { findings } = await parseCorpusFile('osv-scanner', 'osv-scanner/dd_osv-scanner_malicious-package.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'critical', rule: { cwe: ['CWE-506'], cve: [] }, location: { package: { name: 'flot-axis' } } });
  });

  it('an empty (zero-byte) file is rejected explicitly, not read as "no findings"', async () => {
    await expect(parseCorpusFile('osv-scanner', 'osv-scanner/dd_osv-scanner_empty-file.json')).rejects.toMatchObject({ code: 'empty_report' });
  });

  it('results a → b: the extra record joins an existing group, so both scans have the same findings', async () => {
    const a = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_ci_results-a.json');
    const b = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_ci_results-b_one-more-vuln.json');
    expect(b.findings.map(fp)).toEqual(a.findings.map(fp));
  });

  it('extractor fixture: crossbeam-utils 0.6.6, memoffset 0.5.6, smallvec 1.6.0 from /path/to/Cargo.lock', async () => {
    const { findings } = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_extractor_3-crates.json');
    expect(findings.map((f) => `${f.location.package?.name}@${f.location.package?.version}`)).toEqual(['crossbeam-utils@0.6.6', 'memoffset@0.5.6', 'smallvec@1.6.0']);
    expect(findings.every((f) => f.location.path === '/path/to/Cargo.lock' && f.location.package?.ecosystem === 'crates.io')).toBe(true);
  });

  it('a commit-only package without vulnerabilities gives nothing; the Debian/Go/Rust fixture gives one finding per group', async () => {
    expect((await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_extractor_commit-only.json')).findings).toHaveLength(0);
    expect((await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_filter-input_debian-go-rust.json')).findings).toHaveLength(11);
  });
});
