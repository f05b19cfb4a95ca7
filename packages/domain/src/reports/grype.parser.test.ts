import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

const fp = (f: TNormalizedFinding): string => computeFingerprint({ entityKey: 'image:x', tool: f.tool, finding: f });

describe('Grype parser', () => {
  it('rejects a report without matches', async () => {
    await expect(parseReportBuffer('grype', '{"source": {}}')).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/matches' });
    await expect(parseReportBuffer('grype', '[]')).rejects.toMatchObject({ code: 'invalid_shape' });
  });

  it('keeps ignored matches as dismissed findings, with the VEX statement or the ignore rule as the reason, and the fingerprint of the unignored match', async () => {
    const match = (id: string) => ({ vulnerability: { id, severity: 'High' }, artifact: { name: 'openssl', version: '3.0.7', type: 'rpm', purl: 'pkg:rpm/redhat/openssl@3.0.7' } });
    const body = {
      matches: [match('CVE-2024-0001')],
      ignoredMatches: [
        { ...match('CVE-2024-0002'), appliedIgnoreRules: [{ vulnerability: 'CVE-2024-0002', reason: 'not reachable from our code' }] },
        { ...match('CVE-2024-0003'), appliedIgnoreRules: [{ 'fix-state': 'not-fixed', package: { name: 'openssl', type: 'rpm' } }] },
        { ...match('CVE-2024-0004'), appliedIgnoreRules: [{ vulnerability: 'CVE-2024-0004', 'vex-status': 'not_affected', 'vex-justification': 'vulnerable_code_not_present' }] },
        { ...match('CVE-2024-0005'), appliedIgnoreRules: null },
      ],
    };
    const fs = (await parseReportBuffer('grype', JSON.stringify(body))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => [f.rule.id, f.suppression])).toEqual([
      ['CVE-2024-0001', undefined],
      ['CVE-2024-0002', { kind: 'tool', status: 'ignored', justification: 'not reachable from our code' }],
      ['CVE-2024-0003', { kind: 'tool', status: 'ignored', justification: 'ignore rule: fix-state not-fixed, package openssl, type rpm' }],
      ['CVE-2024-0004', { kind: 'vex', status: 'not_affected', justification: 'vulnerable_code_not_present' }],
      ['CVE-2024-0005', { kind: 'tool', status: 'ignored' }],
    ]);
    // Ignoring a match changes its status, not its identity: the known finding is dismissed, not fixed and replaced.
    const unignored = (await parseReportBuffer('grype', JSON.stringify({ matches: [match('CVE-2024-0002')] }))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fp(fs[1])).toBe(fp(unignored[0]));
    await expect(parseReportBuffer('grype', JSON.stringify({ matches: [], ignoredMatches: {} }))).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/ignoredMatches' });
  });

  it('reads both matchDetails shapes (one object in the 2021 schema, a list since) and tolerates nulls and strings for numbers', async () => {
    const body = {
      descriptor: null,
      matches: [
        {
          vulnerability: { id: 'CVE-2021-0001', severity: 'High', links: null, cvssV2: { baseScore: '5.0' }, fixedInVersion: '1.2' },
          matchDetails: { matcher: 'dpkg-matcher', searchKey: { distro: 'debian 10' }, matchInfo: null },
          artifact: { name: 'libx', version: '1.1', type: 'deb', locations: null, purl: null },
        },
        {
          vulnerability: { id: 'GHSA-aaaa-bbbb-cccc', severity: 'Unknown', cvss: [{ metrics: { baseScore: '7.1' } }, null], fix: { state: 'not-fixed', versions: null } },
          relatedVulnerabilities: [{ id: 'CVE-2022-0002', description: 'from NVD', cvss: null }, null, { id: 'PYSEC-2022-1' }],
          matchDetails: [{ type: 'exact-direct-match', matcher: 'python-matcher', searchedBy: {}, found: {} }, { type: 'cpe-match', matcher: 'python-matcher' }],
          artifact: { name: 'pkg', version: '2.0', type: 'python', purl: 'pkg:pypi/pkg@2.0', locations: [{ path: '/app/req.txt', layerID: null }] },
        },
        { vulnerability: { id: 'CVE-2021-0003', severity: 'Negligible' }, matchDetails: null, artifact: { name: 'z' } },
      ],
    };
    const fs = (await parseReportBuffer('grype', JSON.stringify(body))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => [f.rule.id, f.severity, f.location.path, f.location.package?.ecosystem])).toEqual([
      ['CVE-2021-0001', 'high', undefined, 'deb'],
      ['GHSA-aaaa-bbbb-cccc', 'high', '/app/req.txt', 'pypi'],
      ['CVE-2021-0003', 'info', undefined, undefined],
    ]);
    expect(fs[0].evidence[0]).toMatchObject({ fixed_versions: ['1.2'] });
    expect(fs[0].message).toBe('Matched by dpkg-matcher');
    expect(fs[1].rule).toMatchObject({ cve: ['CVE-2022-0002'], aliases: ['PYSEC-2022-1'] });
    expect(fs[1].message).toBe('from NVD\n\nMatched by exact-direct-match (python-matcher), cpe-match (python-matcher)');
    expect(fs[1].evidence[0]).not.toHaveProperty('fixed_versions');
  });

  it('falls back to the CVSS score when the label is Unknown', async () => {
    const body = { matches: [{ vulnerability: { id: 'CVE-1', severity: 'Unknown', cvss: [{ metrics: { baseScore: 9.8 } }] }, artifact: { name: 'x', version: '1' } }] };
    const [item] = await parseReportBuffer('grype', JSON.stringify(body));
    expect(item.type === 'finding' && item.finding.severity).toBe('critical');
  });
});

describeCorpus('Grype corpus (facts from MANIFEST.md)', () => {
  it.each([['grype/dd_grype-0.7.0_no-vuln.json'], ['grype/grype_presenter_empty.json']])('%s: 0 findings', async (file) => {
    expect((await parseCorpusFile('grype', file)).findings).toHaveLength(0);
  });

  it('0.7.0 debian image: 327 findings; CVE-2011-3389 on libgnutls30 3.6.7-4+deb10u5 is medium', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/dd_grype-0.7.0_debian-image_327.json');
    expect(findings).toHaveLength(327);
    expect(findings.find((f) => f.rule.id === 'CVE-2011-3389' && f.location.package?.name === 'libgnutls30')).toMatchObject({ severity: 'medium', location: { package: { version: '3.6.7-4+deb10u5' } } });
  });

  it('0.24.0 directory scan: 9 findings; CVE-1999-1338 on delegate 3.2.0 is medium', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/dd_grype-0.24.0_directory-npm.json');
    expect(findings).toHaveLength(9);
    expect(findings.find((f) => f.rule.id === 'CVE-1999-1338')).toMatchObject({ severity: 'medium', location: { package: { name: 'delegate', version: '3.2.0' } } });
  });

  it('0.28.0 all fields: 6 matches → 5 distinct findings (the two Django matches are one)', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/dd_grype-0.28.0_check-all-fields.json');
    expect(findings).toHaveLength(6);
    expect(new Set(findings.map(fp)).size).toBe(5);
    expect(findings[0]).toMatchObject({
      severity: 'info',
      title: 'CVE-2004-0971 in libgssapi-krb5-2@1.17-3+deb10u3',
      rule: { id: 'CVE-2004-0971' },
      // DefectDojo's tag "dpkg" is the package type: a Debian package.
      location: { package: { name: 'libgssapi-krb5-2', version: '1.17-3+deb10u3', ecosystem: 'deb' } },
    });
    // The CVSS vector DefectDojo asserts for redis has no field in the finding model yet.
    expect(findings.find((f) => f.rule.id === 'CVE-2021-32626')).toMatchObject({ severity: 'high', title: 'CVE-2021-32626 in redis@4.0.2', location: { package: { name: 'redis', version: '4.0.2', ecosystem: 'pypi' } } });
    expect(findings.filter((f) => f.rule.id === 'CVE-2021-33574').map((f) => [f.location.package?.name, f.severity])).toEqual([
      ['libc-bin', 'critical'],
      ['libc6', 'critical'],
    ]);
    const django = findings.filter((f) => f.rule.id === 'GHSA-v6rh-hp5x-86rv');
    expect(django).toHaveLength(2);
    expect(new Set(django.map(fp)).size).toBe(1); // nb_occurences 2: two matches, one finding
    expect(django[0]).toMatchObject({ severity: 'high', title: 'GHSA-v6rh-hp5x-86rv in Django@3.2.9', rule: { cve: ['CVE-2021-44420'] }, location: { package: { name: 'Django', version: '3.2.9' } } });
  });

  it('0.96.0 RHEL 8 image: 35 findings', async () => {
    expect((await parseCorpusFile('grype', 'grype/dd_grype-0.96.0_rhel8-image.json')).findings).toHaveLength(35);
  });

  it('0.94.0 with EPSS: the 15 CVEs DefectDojo lists, in its order (the EPSS scores have no field yet)', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/dd_grype-0.94.0_epss.json');
    expect(findings.map((f) => f.rule.id)).toEqual(
      ['CVE-2022-28391', 'CVE-2021-28831', 'CVE-2022-48174', 'CVE-2021-42380', 'CVE-2021-42381', 'CVE-2021-42382', 'CVE-2021-42386', 'CVE-2021-42385', 'CVE-2021-42378', 'CVE-2021-42379', 'CVE-2021-42384', 'CVE-2021-42374', 'CVE-2021-42376', 'CVE-2024-58251', 'CVE-2025-46394'],
    );
  });

  it('0.75.0 fix available: 1 finding fixed in 1.2.3; the NUL in the Java version is removed', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/dd_grype-0.75.0_fix-available.json');
    expect(findings).toHaveLength(1);
    expect(findings[0].location.package?.version).toBe('17.0.10+7-J-ms8m');
    expect(findings[0].evidence[0]).toMatchObject({ kind: 'dependency_path', fixed_versions: ['1.2.3'] });
    expect(JSON.stringify(findings)).not.toContain('\\u0000');
  });

  it('0.36.0 same CVE at two paths: two matches, one finding identity (DefectDojo default mode), both paths kept (its detailed mode)', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/dd_grype-0.36.0_same-cve-two-paths.json');
    expect(findings.map((f) => [f.rule.id, f.location.package?.name, f.location.package?.version])).toEqual([
      ['CVE-2021-33574', 'libc6', '2.28-10'],
      ['CVE-2021-33574', 'libc6', '2.28-10'],
    ]);
    expect(findings.map((f) => f.location.path).sort()).toEqual(['/lib/x86_64-linux-gnu/libc.so.6', '/usr/lib/x86_64-linux-gnu/libc.so.6']);
    expect(new Set(findings.map(fp)).size).toBe(1);
  });

  it('presenter golden: CVE-1999-0001 on package-1 1.1.1 low (fixed 1.2.1/2.1.3/3.4.0), CVE-1999-0002 on package-2 2.2.2 critical', async () => {
    const { findings } = await parseCorpusFile('grype', 'grype/grype_presenter_image.json');
    expect(findings.map((f) => [f.rule.id, f.location.package?.name, f.location.package?.version, f.severity])).toEqual([
      ['CVE-1999-0001', 'package-1', '1.1.1', 'low'],
      ['CVE-1999-0002', 'package-2', '2.2.2', 'critical'],
    ]);
    expect(findings[0].evidence[0]).toMatchObject({ fixed_versions: ['1.2.1', '2.1.3', '3.4.0'] });
    expect(findings[1].evidence[0]).not.toHaveProperty('fixed_versions');
  });
});
