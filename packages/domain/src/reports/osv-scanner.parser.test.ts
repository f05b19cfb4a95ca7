import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { CORPUS_DIR, describeCorpus, parseCorpusFile } from './testing/corpus';

const fp = (f: TNormalizedFinding): string => computeFingerprint({ entityKey: 'repository:x', tool: f.tool, finding: f });
/** Every id a finding answers to: its rule id, CVEs and other aliases. */
const idsOf = (f: TNormalizedFinding): string[] => [f.rule.id, ...f.rule.cve, ...(f.rule.aliases ?? [])];
/** The vulnerability ids a raw osv-scanner report lists, per package. */
const rawIds = (file: string): string[] => {
  const report = JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')) as { results: { packages: { vulnerabilities: { id: string }[] }[] }[] };
  return report.results.flatMap((r) => r.packages.flatMap((p) => p.vulnerabilities.map((v) => v.id)));
};

describe('OSV-Scanner parser', () => {
  const parse = async (report: unknown) => (await parseReportBuffer('osv-scanner', JSON.stringify(report))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));

  it('reads "results": null (nothing found, as Go writes an empty list) as no findings', async () => {
    expect(await parse({ results: null })).toEqual([]);
    expect(await parse({ results: [{ source: null, packages: null }] })).toEqual([]);
  });

  it('without groups (older releases) gives one finding per record; severity from a CVSS vector, a distribution\'s word or the group score', async () => {
    const fs = await parse({
      results: [
        {
          source: { path: 'go.sum', type: 'lockfile' },
          packages: [
            {
              package: { name: 'golang.org/x/net', version: '0.1.0', ecosystem: 'Go' },
              vulnerabilities: [
                { id: 'GO-2023-0001', aliases: ['CVE-2023-11111', 'GHSA-aaaa-bbbb-cccc'], severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }], affected: null },
                { id: 'UBUNTU-CVE-2023-22222', severity: [{ type: 'Ubuntu', score: 'medium' }], affected: [{ package: null, ranges: [{ events: [{ introduced: '0' }, { fixed: '0.2.0' }] }] }] },
                { id: 'GO-2023-0003', severity: null, database_specific: null },
                null,
              ],
              groups: null,
            },
            { package: { commit: 'abc123' }, vulnerabilities: [{ id: 'OSV-2020-1' }], groups: [{ ids: ['OSV-2020-1'], max_severity: '' }] },
            { package: null, vulnerabilities: [{ id: 'X' }] },
          ],
        },
      ],
    });
    expect(fs.map((f) => [f.rule.id, f.severity, f.location.package?.name])).toEqual([
      ['CVE-2023-11111', 'critical', 'golang.org/x/net'],
      ['UBUNTU-CVE-2023-22222', 'medium', 'golang.org/x/net'],
      ['GO-2023-0003', 'info', 'golang.org/x/net'],
      ['OSV-2020-1', 'info', 'commit:abc123'],
    ]);
    expect(fs[0].rule.aliases).toEqual(['GO-2023-0001', 'GHSA-aaaa-bbbb-cccc']);
    expect(fs[1].evidence[0]).toMatchObject({ fixed_versions: ['0.2.0'] });
  });

  it('names the fix of the SEMVER interval that holds the installed version; every fix where the ranges cannot place it', async () => {
    const stdlib = (version: string, type = 'SEMVER') => ({
      package: { name: 'stdlib', version, ecosystem: 'Go' },
      vulnerabilities: [
        { id: 'GO-2025-3751', affected: [{ package: { name: 'stdlib', ecosystem: 'Go' }, ranges: [{ type, events: [{ introduced: '0' }, { fixed: '1.23.10' }, { introduced: '1.24.0-0' }, { fixed: '1.24.4' }] }] }] },
      ],
    });
    const fs = await parse({ results: [{ source: { path: 'go.mod' }, packages: [stdlib('1.24.3'), stdlib('1.22.1'), stdlib('1.25.0'), stdlib('1.24.3', 'ECOSYSTEM'), stdlib('devel')] }] });
    expect(fs.map((f) => f.evidence[0].kind === 'dependency_path' && f.evidence[0].fixed_versions)).toEqual([
      ['1.24.4'],
      ['1.23.10'],
      ['1.23.10', '1.24.4'],
      ['1.23.10', '1.24.4'],
      ['1.23.10', '1.24.4'],
    ]);
  });

  it('keeps the licences of a package on its component, and makes each licence violation a finding', async () => {
    const items = await parseReportBuffer(
      'osv-scanner',
      JSON.stringify({
        results: [
          {
            source: { path: '/src/requirements.txt', type: 'lockfile' },
            packages: [
              { package: { name: 'certifi', version: '2024.2.2', ecosystem: 'PyPI' }, licenses: ['MPL-2.0'], license_violations: ['MPL-2.0'], vulnerabilities: [], groups: [] },
              { package: { name: 'idna', version: '3.7', ecosystem: 'PyPI' }, licenses: ['BSD-3-Clause'], license_violations: null },
            ],
          },
        ],
      }),
    );
    expect(items.flatMap((i) => (i.type === 'component' ? [[i.component.name, i.component.licenses]] : []))).toEqual([
      ['certifi', ['MPL-2.0']],
      ['idna', ['BSD-3-Clause']],
    ]);
    const [violation, ...rest] = items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(rest).toHaveLength(0);
    expect(violation).toMatchObject({ rule: { id: 'license:MPL-2.0' }, severity: 'medium', title: 'License MPL-2.0 in certifi', location: { path: '/src/requirements.txt', package: { name: 'certifi', version: '2024.2.2' } } });
  });
});

describeCorpus('OSV-Scanner corpus (facts from MANIFEST.md)', () => {
  it('66 vulnerability records: DefectDojo\'s 66 findings are our 37 alias groups, and all 66 ids are among their ids', async () => {
    const file = 'osv-scanner/dd_osv-scanner_66-findings.json';
    const { findings } = await parseCorpusFile('osv-scanner', file);
    // We differ on purpose: records osv-scanner groups as aliases (a GHSA and its PYSEC twin) are one vulnerability, so one finding to fix or dismiss.
    expect(findings).toHaveLength(37);
    expect((await parseCorpusFile('osv-scanner', file)).components).toHaveLength(11);
    const ids = rawIds(file);
    expect(ids).toHaveLength(66);
    const covered = new Set(findings.flatMap(idsOf));
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
    const byId = (id: string) => findings.find((f) => idsOf(f).includes(id));
    // [0] GHSA-25mq-v84q-4j7r on guzzle, high (DefectDojo leaves cve empty; the record's alias CVE-2022-31090 is kept here).
    expect(byId('GHSA-25mq-v84q-4j7r')).toMatchObject({ severity: 'high', rule: { cve: ['CVE-2022-31090'] }, location: { package: { name: 'guzzlehttp/guzzle', version: '6.3.3' } } });
    // [3] GHSA-q559-8m2m-g699 on guzzle, from /tmpcardmarket-api/composer.lock.
    expect(byId('GHSA-q559-8m2m-g699')).toMatchObject({ location: { path: '/tmpcardmarket-api/composer.lock', package: { name: 'guzzlehttp/guzzle' } } });
    // [17] GHSA-53qw-q765-4fww on django: the fix lists 2.2.26.
    const django = byId('GHSA-53qw-q765-4fww');
    expect(django?.location.package?.name).toBe('django');
    expect(django?.evidence[0]).toMatchObject({ kind: 'dependency_path', fixed_versions: expect.arrayContaining(['2.2.26']) });
  });

  it('malicious package: MAL-2023-1035 on flot-axis, CWE-506, no CVE; critical where DefectDojo says low', async () => {
    const file = 'osv-scanner/dd_osv-scanner_malicious-package.json';
    const { findings } = await parseCorpusFile('osv-scanner', file);
    expect(findings).toHaveLength(1);
    expect(idsOf(findings[0])).toContain('MAL-2023-1035');
    // We differ on purpose: the advisory says the machine is "fully compromised", so critical; DefectDojo's Low is its default for a record that states no severity.
    expect(findings[0]).toMatchObject({ severity: 'critical', title: expect.stringContaining('flot-axis'), rule: { cwe: ['CWE-506'], cve: [] }, location: { package: { name: 'flot-axis' } } });
    const record = JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')).results[0].packages[0].vulnerabilities[0];
    expect([record.id, record.severity, record.database_specific?.severity]).toEqual(['MAL-2023-1035', undefined, undefined]);
  });

  it('an empty (zero-byte) file is rejected explicitly, not read as "no findings"', async () => {
    await expect(parseCorpusFile('osv-scanner', 'osv-scanner/dd_osv-scanner_empty-file.json')).rejects.toMatchObject({ code: 'empty_report' });
  });

  it('results a → b: b lists exactly one vulnerability more; it joins an existing group, so both scans have the same findings', async () => {
    const a = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_ci_results-a.json');
    const b = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_ci_results-b_one-more-vuln.json');
    const aIds = new Set(rawIds('osv-scanner/osv-scanner_ci_results-a.json'));
    const extra = rawIds('osv-scanner/osv-scanner_ci_results-b_one-more-vuln.json').filter((id) => !aIds.has(id));
    expect(extra).toHaveLength(1);
    expect(b.findings.flatMap(idsOf)).toContain(extra[0]);
    expect(b.findings.map(fp)).toEqual(a.findings.map(fp));
  });

  it('extractor fixture: crossbeam-utils 0.6.6, memoffset 0.5.6, smallvec 1.6.0 from /path/to/Cargo.lock', async () => {
    const { findings, components } = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_extractor_3-crates.json');
    expect(components).toEqual([
      { name: 'crossbeam-utils', version: '0.6.6', type: 'crates.io', licenses: [] },
      { name: 'memoffset', version: '0.5.6', type: 'crates.io', licenses: [] },
      { name: 'smallvec', version: '1.6.0', type: 'crates.io', licenses: [] },
    ]);
    expect(findings.map((f) => `${f.location.package?.name}@${f.location.package?.version}`)).toEqual(['crossbeam-utils@0.6.6', 'memoffset@0.5.6', 'smallvec@1.6.0']);
    expect(findings.every((f) => f.location.path === '/path/to/Cargo.lock' && f.location.package?.ecosystem === 'crates.io')).toBe(true);
  });

  it('a commit-only package: one component named by its commit, no findings; the Debian/Go/Rust fixture gives one finding per group', async () => {
    const commitOnly = await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_extractor_commit-only.json');
    expect(commitOnly.findings).toHaveLength(0);
    expect(commitOnly.components).toEqual([{ name: 'commit:9a6bd55c9d0722cb101fe85a3b22d89e4ff4fe52', licenses: [] }]);
    expect((await parseCorpusFile('osv-scanner', 'osv-scanner/osv-scanner_filter-input_debian-go-rust.json')).findings).toHaveLength(11);
  });
});
