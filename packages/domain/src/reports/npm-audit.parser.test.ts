import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

/** audit-ci's "advisory|path" notation, from our dependency_path evidence. */
const advisoryPaths = (fs: TNormalizedFinding[]): string[] =>
  fs.flatMap((f) => f.evidence.flatMap((e) => (e.kind === 'dependency_path' ? [`${f.rule.id}|${e.path.join('>')}`] : []))).sort();

describe('npm audit parser', () => {
  const parse = async (report: unknown) => (await parseReportBuffer('npm-audit', JSON.stringify(report))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));

  it('v2: tolerates fixAvailable as a boolean, cwe as a string, advisories without a URL, nulls', async () => {
    const fs = await parse({
      auditReportVersion: 2,
      vulnerabilities: {
        a: { name: 'a', severity: 'moderate', isDirect: true, via: [{ source: 1001, name: 'a', title: 'Bad a', severity: 'moderate', cwe: 'CWE-79', range: '<2.0.0' }], effects: [], fixAvailable: true },
        b: { name: 'b', severity: 'low', isDirect: false, via: ['a', null, { source: '1002', name: 'b', url: 'https://github.com/advisories/GHSA-2222-3333-4444', severity: 'low', cwe: null }], effects: ['a'], fixAvailable: false },
        c: null,
      },
      metadata: null,
    });
    expect(fs.map((f) => [f.rule.id, f.severity, f.rule.cwe, f.location.package?.name])).toEqual([
      ['NPM-1001', 'medium', ['CWE-79'], 'a'],
      ['GHSA-2222-3333-4444', 'low', [], 'b'],
    ]);
    expect(fs[0].message).toBe('Bad a\n\nVulnerable versions: <2.0.0');
    expect(fs[1].evidence.map((e) => e.kind === 'dependency_path' && e.path)).toEqual([['a', 'b']]);
  });

  it('v2: walks dependency paths up through the dependents whose via names a package when npm left its effects empty', async () => {
    const fs = await parse({
      auditReportVersion: 2,
      vulnerabilities: {
        immer: { name: 'immer', severity: 'critical', isDirect: false, via: [{ source: 1, name: 'immer', title: 'Prototype Pollution', url: 'https://github.com/advisories/GHSA-33f9-j839-rf8h', severity: 'critical' }], effects: ['react-dev-utils'] },
        'react-dev-utils': { name: 'react-dev-utils', severity: 'critical', isDirect: false, via: ['immer'], effects: [] },
        'react-scripts': { name: 'react-scripts', severity: 'critical', isDirect: true, via: ['react-dev-utils'], effects: [] },
      },
    });
    expect(fs.map((f) => f.evidence.map((e) => e.kind === 'dependency_path' && e.path))).toEqual([[['react-scripts', 'react-dev-utils', 'immer']]]);
  });

  it('v1: tolerates advisories without findings, cves or paths', async () => {
    const fs = await parse({ advisories: { '7': { id: 7, module_name: 'm', severity: 'high', title: 't', cves: null, findings: null, patched_versions: 'not a range' }, '8': null }, metadata: {} });
    expect(fs.map((f) => [f.rule.id, f.severity, f.location.package])).toEqual([['NPM-7', 'high', { name: 'm', purl: 'pkg:npm/m', ecosystem: 'npm' }]]);
  });

  it("v1 as pnpm writes it: paths from the project (\".\") through name@version steps", async () => {
    const fs = await parse({
      advisories: {
        '1089': {
          id: 1089,
          module_name: 'node-forge',
          severity: 'high',
          title: 'Prototype Pollution in node-forge',
          cves: ['CVE-2020-7720'],
          patched_versions: '>=0.10.0',
          findings: [{ version: '0.9.0', paths: ['. > react-scripts@4.0.3 > webpack-dev-server@3.11.0 > selfsigned@1.10.8 > node-forge@0.9.0', 'packages/web > node-forge@0.9.0'] }],
        },
      },
      metadata: {},
    });
    expect(fs[0].evidence.map((e) => e.kind === 'dependency_path' && e.path)).toEqual([
      ['react-scripts@4.0.3', 'webpack-dev-server@3.11.0', 'selfsigned@1.10.8', 'node-forge@0.9.0'],
      ['packages/web', 'node-forge@0.9.0'],
    ]);
  });

  it('rejects an npm error report and a report with neither shape', async () => {
    await expect(parseReportBuffer('npm-audit', '{"error": {"code": "ENOLOCK", "summary": "no lockfile"}}')).rejects.toMatchObject({ code: 'invalid_shape', message: expect.stringContaining('no lockfile') });
    await expect(parseReportBuffer('npm-audit', '{"metadata": {}}')).rejects.toMatchObject({ code: 'invalid_shape' });
    const yarn = '{"type":"auditAdvisory","data":{"resolution":{"id":1,"path":"a>b"},"advisory":{"id":1}}}\n{"type":"auditSummary","data":{}}\n';
    await expect(parseReportBuffer('npm-audit', yarn)).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/type', message: expect.stringContaining('yarn audit --json') });
  });
});

describeCorpus('npm audit corpus (facts from MANIFEST.md)', () => {
  it.each([['npm-audit/dd_npm6_no-vuln.json'], ['npm-audit/dd_npm7_no-vuln.json']])('%s: 0 findings', async (file) => {
    expect((await parseCorpusFile('npm-audit', file)).findings).toHaveLength(0);
  });

  it('v1, five advisories: 5 findings, CVE-2017-16138 and CVE-2017-16119 among them, [4] on mime 1.3.4', async () => {
    const { findings } = await parseCorpusFile('npm-audit', 'npm-audit/dd_npm6_five-advisories.json');
    expect(findings).toHaveLength(5);
    expect(findings.flatMap((f) => f.rule.cve)).toEqual(expect.arrayContaining(['CVE-2017-16138', 'CVE-2017-16119']));
    expect(findings[4].location.package).toEqual({ name: 'mime', version: '1.3.4', purl: 'pkg:npm/mime@1.3.4', ecosystem: 'npm' });
    expect(findings[0].evidence[0]).toMatchObject({ kind: 'dependency_path', path: ['express', 'accepts', 'negotiator'], fixed_versions: ['0.6.1'] });
  });

  it('v1 and v2 reports of one project agree: GHSA-hrpp-h998-j3pp|qs, high', async () => {
    const v1 = await parseCorpusFile('npm-audit', 'npm-audit/audit-ci_npm6_high_qs.json');
    const v2 = await parseCorpusFile('npm-audit', 'npm-audit/audit-ci_npm7_high_qs.json');
    for (const { findings } of [v1, v2]) {
      expect(advisoryPaths(findings)).toEqual(['GHSA-hrpp-h998-j3pp|qs']);
      expect(findings[0].severity).toBe('high');
    }
    expect(v2.findings[0].rule.cwe).toEqual(['CWE-1321']);
    expect(v2.findings[0].evidence[0]).toMatchObject({ fixed_versions: ['6.11.2'] });
  });

  it.each([
    ['npm-audit/audit-ci_npm7_critical_open.json', 'GHSA-28xh-wpgr-7fm8|open', 'critical'],
    ['npm-audit/audit-ci_npm7_moderate_base64url.json', 'GHSA-rvg8-pwq2-xj7q|base64url', 'medium'],
    ['npm-audit/audit-ci_npm7_low_chownr.json', 'GHSA-c6rq-rjc2-86v2|chownr', 'low'],
  ])('%s: %s at %s', async (file, path, severity) => {
    const { findings } = await parseCorpusFile('npm-audit', file);
    expect(advisoryPaths(findings)).toEqual([path]);
    expect(findings[0].severity).toBe(severity);
  });

  it('transitive paths: the 5 advisories over the 10 advisory|path pairs audit-ci reports (found + allowlisted)', async () => {
    const { findings } = await parseCorpusFile('npm-audit', 'npm-audit/audit-ci_npm7_transitive-paths.json');
    expect(findings.map((f) => f.rule.id).sort()).toEqual(['GHSA-42xw-2xvc-qx8m', 'GHSA-4w2v-q235-vp99', 'GHSA-74fj-2j2h-c42q', 'GHSA-cph5-m8f7-6c5x', 'GHSA-pw2r-vq6v-hr8c']);
    expect(advisoryPaths(findings)).toEqual(
      [
        'GHSA-4w2v-q235-vp99|axios',
        'GHSA-74fj-2j2h-c42q|axios>follow-redirects',
        'GHSA-74fj-2j2h-c42q|github-build>axios>follow-redirects',
        'GHSA-cph5-m8f7-6c5x|axios',
        'GHSA-42xw-2xvc-qx8m|axios',
        'GHSA-42xw-2xvc-qx8m|github-build>axios',
        'GHSA-4w2v-q235-vp99|github-build>axios',
        'GHSA-cph5-m8f7-6c5x|github-build>axios',
        'GHSA-pw2r-vq6v-hr8c|axios>follow-redirects',
        'GHSA-pw2r-vq6v-hr8c|github-build>axios>follow-redirects',
      ].sort(),
    );
  });

  it('v2, one entry (debug) with two advisories: DefectDojo\'s 1 high CWE-400 finding is our 2, one per advisory', async () => {
    const { findings } = await parseCorpusFile('npm-audit', 'npm-audit/dd_npm7_one-vuln.json');
    // We differ on purpose: one finding per (package, advisory), so fixing or dismissing one advisory does not hide the other.
    expect(findings.map((f) => [f.rule.id, f.severity, f.rule.cwe])).toEqual([
      ['GHSA-gxpj-cx7g-858c', 'medium', ['CWE-400']],
      ['GHSA-9vvw-cc9w-f27h', 'high', ['CWE-1333']],
    ]);
    // The source's facts: one vulnerable package (the one entry), high at worst, CWE-400 among its weaknesses.
    expect(new Set(findings.map((f) => f.location.package?.name))).toEqual(new Set(['debug']));
    expect(findings.some((f) => f.severity === 'high')).toBe(true);
    expect(findings.flatMap((f) => f.rule.cwe)).toContain('CWE-400');
    // The cvssv3 vector DefectDojo asserts (CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L) has no field in the finding model yet.
  });

  it('v2, six entries: DefectDojo\'s 6 findings are our 3 advisories plus the 3 transitive entries on their dependency paths', async () => {
    const { findings } = await parseCorpusFile('npm-audit', 'npm-audit/dd_npm7_six-vulns.json');
    // We differ on purpose: @vercel/fun, @vercel/node and vercel have no advisory of their own (their "via" names packages), so they are path links, not findings.
    expect(findings.map((f) => f.location.package?.name)).toEqual(['debug', 'semver', 'undici']);
    expect(advisoryPaths(findings).map((p) => p.split('|')[1]).sort()).toEqual(['vercel>@vercel/fun>debug', 'vercel>@vercel/fun>semver', 'vercel>@vercel/node>undici']);
    // The source's facts: all 6 entries are named; @vercel/fun's moderate (DefectDojo's [0], medium) is what its paths carry.
    const named = new Set(findings.flatMap((f) => f.evidence.flatMap((e) => (e.kind === 'dependency_path' ? e.path : []))));
    expect([...named].sort()).toEqual(['@vercel/fun', '@vercel/node', 'debug', 'semver', 'undici', 'vercel']);
    const viaFun = findings.filter((f) => f.evidence.some((e) => e.kind === 'dependency_path' && e.path.includes('@vercel/fun')));
    expect(viaFun.map((f) => f.severity)).toEqual(['medium', 'medium']);
    // CWE-1035 ("using components with known vulnerabilities") is DefectDojo's label for such entries, not the report's.
  });
});
