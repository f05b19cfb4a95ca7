import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

const fps = (fs: TNormalizedFinding[]): string[] => fs.map((f) => computeFingerprint({ entityKey: 'image:x', tool: f.tool, finding: f }));

describe('Trivy parser', () => {
  it('streams every kind of result item and keeps the result context', async () => {
    const report = {
      SchemaVersion: 2,
      ArtifactName: 'app',
      Results: [
        {
          Target: 'package-lock.json',
          Class: 'lang-pkgs',
          Type: 'npm',
          Packages: [
            { ID: 'root@1.0.0', Name: 'root', Version: '1.0.0', DependsOn: ['mid@2.0.0'] },
            { ID: 'mid@2.0.0', Name: 'mid', Version: '2.0.0', DependsOn: ['leaf@3.0.0'], Identifier: { PURL: 'pkg:npm/mid@2.0.0' } },
            { ID: 'leaf@3.0.0', Name: 'leaf', Version: '3.0.0', Identifier: { PURL: 'pkg:npm/leaf@3.0.0' }, Licenses: ['MIT'] },
          ],
          Vulnerabilities: [{ VulnerabilityID: 'CVE-2024-1', PkgID: 'leaf@3.0.0', PkgName: 'leaf', InstalledVersion: '3.0.0', FixedVersion: '3.0.1, 4.0.0', Severity: 'HIGH', PkgIdentifier: { PURL: 'pkg:npm/leaf@3.0.0' } }],
        },
        { Target: 'k8s.yaml', Class: 'config', Misconfigurations: [{ ID: 'KSV001', Title: 'Privilege escalation', Severity: 'MEDIUM', Status: 'FAIL', CauseMetadata: { StartLine: 3, EndLine: 4 } }, { ID: 'KSV002', Status: 'PASS', Severity: 'LOW' }] },
      ],
    };
    const items = await parseReportBuffer('trivy', JSON.stringify(report));
    expect(items.filter((i) => i.type === 'component')).toHaveLength(3);
    const fs = items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs).toHaveLength(2);
    expect(fs[0]).toMatchObject({ severity: 'high', location: { path: 'package-lock.json', package: { name: 'leaf', version: '3.0.0', ecosystem: 'npm' } } });
    expect(fs[0].evidence[0]).toEqual({
      kind: 'dependency_path',
      path: ['root@1.0.0', 'pkg:npm/mid@2.0.0', 'pkg:npm/leaf@3.0.0'],
      package: { name: 'leaf', version: '3.0.0', purl: 'pkg:npm/leaf@3.0.0', ecosystem: 'npm' },
      fixed_versions: ['3.0.1', '4.0.0'],
    });
    expect(fs[1]).toMatchObject({ rule: { id: 'KSV001' }, location: { path: 'k8s.yaml', start_line: 3, end_line: 4 } });
  });

  it('tolerates what other Trivy versions write: no Results (a clean scan), null arrays and items, numbers as strings, lower-case severities', async () => {
    const parse = async (report: unknown) => (await parseReportBuffer('trivy', JSON.stringify(report))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(await parse({ SchemaVersion: 2, ArtifactName: 'alpine:3.19', ArtifactType: 'container_image' })).toEqual([]);
    expect(await parse({ SchemaVersion: 2, Results: null })).toEqual([]);
    expect(await parse(null)).toEqual([]);
    const fs = await parse({
      SchemaVersion: 2,
      Results: [
        { Target: 'img (alpine 3.19)', Class: 'os-pkgs', Type: 'alpine', Vulnerabilities: null, Packages: null },
        { Target: 'a.yaml', Class: 'config', Misconfigurations: [null, { ID: 'KSV001', Severity: 'medium', Status: 'FAIL', CauseMetadata: { StartLine: '3', EndLine: '5', Code: null } }] },
        {
          Target: 'go.mod',
          Class: 'lang-pkgs',
          Type: 'gomod',
          Vulnerabilities: [
            { VulnerabilityID: 'GHSA-xxxx-yyyy-zzzz', VendorIDs: ['CVE-2024-9999', 'GO-2024-1'], PkgName: 'x/net', InstalledVersion: 'v0.1.0', Severity: 'high', CweIDs: null, Layer: null, Status: 'not_affected' },
            { VulnerabilityID: 'CVE-2024-10000', PkgName: 'x/text', InstalledVersion: 'v0.3.0', CVSS: { nvd: { V3Score: '9.8' } } },
          ],
        },
        { Target: 'k', Class: 'secret', Secrets: [{ RuleID: 'aws', StartLine: 2, Match: 'key=****', Severity: null }] },
      ],
    });
    expect(fs.map((f) => [f.rule.id, f.severity, f.location.path, f.location.start_line])).toEqual([
      ['KSV001', 'medium', 'a.yaml', 3],
      ['GHSA-xxxx-yyyy-zzzz', 'high', 'go.mod', undefined],
      ['CVE-2024-10000', 'info', 'go.mod', undefined],
      ['aws', 'high', 'k', 2],
    ]);
    expect(fs[1].rule).toMatchObject({ cve: ['CVE-2024-9999'], aliases: ['GO-2024-1'] });
    expect(fs[1].suppression).toEqual({ kind: 'tool', status: 'not_affected' });
  });

  it('reads the older Kubernetes report, whose Vulnerabilities / Misconfigurations are lists of resources', async () => {
    const report = {
      ClusterName: 'c',
      Vulnerabilities: [{ Namespace: 'ns', Kind: 'Deployment', Name: 'web', Results: [{ Target: 'nginx:1 (debian 12)', Class: 'os-pkgs', Type: 'debian', Vulnerabilities: [{ VulnerabilityID: 'CVE-1', PkgName: 'libc6', InstalledVersion: '2.36', Severity: 'LOW' }] }] }],
      Misconfigurations: [{ Namespace: 'ns', Kind: 'Deployment', Name: 'web', Results: null }, { Kind: 'Node', Name: 'n1', Results: [{ Target: 'node', Misconfigurations: [{ ID: 'KCV0001', Severity: 'HIGH', Status: 'FAIL' }] }] }],
    };
    const fs = (await parseReportBuffer('trivy', JSON.stringify(report))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => [f.rule.id, f.location.logical])).toEqual([
      ['CVE-1', 'ns/Deployment/web'],
      ['KCV0001', 'Node/n1'],
    ]);
  });

  it('reads the lines of a misconfiguration from IacMetadata, as Trivy before 0.28 wrote them', async () => {
    const misconfiguration = { ID: 'KSV001', Title: 'Process can elevate its own privileges', Severity: 'MEDIUM', Status: 'FAIL', Message: 'set allowPrivilegeEscalation to false' };
    const report = {
      SchemaVersion: 2,
      Results: [
        { Target: 'deploy.yaml', Class: 'config', Type: 'kubernetes', Misconfigurations: [{ ...misconfiguration, IacMetadata: { Resource: 'Deployment/web', StartLine: 121, EndLine: 133 } }] },
      ],
    };
    const [f] = (await parseReportBuffer('trivy', JSON.stringify(report))).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(f.location).toMatchObject({ path: 'deploy.yaml', start_line: 121, end_line: 133, logical: 'Deployment/web' });
    expect(f.evidence).toEqual([
      expect.objectContaining({ kind: 'config_path', file: 'deploy.yaml', path: 'Deployment/web', line: 121 }),
      { kind: 'code_span', region: { path: 'deploy.yaml', start_line: 121, end_line: 133 } },
    ]);
  });

  it('keeps what --show-suppressed lists as dismissed findings, read as their unmodified kind', async () => {
    const vuln = { VulnerabilityID: 'CVE-2022-23628', PkgID: 'github.com/open-policy-agent/opa@v0.35.0', PkgName: 'github.com/open-policy-agent/opa', InstalledVersion: 'v0.35.0', Severity: 'MEDIUM' };
    const misconfig = { ID: 'DS002', Title: 'Image user should not be root', Severity: 'HIGH', Status: 'FAIL', CauseMetadata: { StartLine: 1, EndLine: 1 } };
    const report = (results: object[]) => JSON.stringify({ SchemaVersion: 2, Results: results });
    const suppressed = await parseReportBuffer(
      'trivy',
      report([
        {
          Target: 'go.mod',
          Class: 'lang-pkgs',
          Type: 'gomod',
          ExperimentalModifiedFindings: [
            { Type: 'vulnerability', Status: 'not_affected', Statement: 'vulnerable_code_not_in_execute_path', Source: 'OpenVEX', Finding: vuln },
            { Type: 'unknown-kind', Status: 'ignored', Finding: vuln },
            { Type: 'vulnerability', Status: 'ignored' },
            null,
          ],
        },
        {
          Target: 'Dockerfile',
          Class: 'config',
          Type: 'dockerfile',
          // Trivy lists an ignored check before dropping those that passed: a passed one is no finding.
          ModifiedFindings: [
            { Type: 'misconfiguration', Status: 'ignored', Source: '.trivyignore', Finding: misconfig },
            { Type: 'misconfiguration', Status: 'ignored', Source: '.trivyignore', Finding: { ...misconfig, ID: 'DS005', Status: 'PASS' } },
          ],
        },
      ]),
    );
    const fs = suppressed.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => [f.rule.id, f.suppression])).toEqual([
      ['CVE-2022-23628', { kind: 'vex', status: 'not_affected', justification: 'vulnerable_code_not_in_execute_path (source: OpenVEX)' }],
      ['DS002', { kind: 'tool', status: 'ignored', justification: '(source: .trivyignore)' }],
    ]);
    const vexFixed = await parseReportBuffer('trivy', report([{ Target: 'go.mod', Class: 'lang-pkgs', Type: 'gomod', ModifiedFindings: [{ Type: 'vulnerability', Status: 'fixed', Source: 'OpenVEX', Finding: vuln }] }]));
    expect(vexFixed).toMatchObject([{ type: 'finding', finding: { suppression: { kind: 'vex', status: 'fixed' } } }]);
    const open = await parseReportBuffer(
      'trivy',
      report([
        { Target: 'go.mod', Class: 'lang-pkgs', Type: 'gomod', Vulnerabilities: [vuln] },
        { Target: 'Dockerfile', Class: 'config', Type: 'dockerfile', Misconfigurations: [misconfig] },
      ]),
    );
    expect(fps(fs)).toEqual(fps(open.flatMap((i) => (i.type === 'finding' ? [i.finding] : []))));
  });

  it('rejects a report that is not Trivy JSON', async () => {
    await expect(parseReportBuffer('trivy', '"x"')).rejects.toMatchObject({ code: 'invalid_shape' });
    await expect(parseReportBuffer('trivy', '{"Results": {}}')).rejects.toMatchObject({ pointer: '/Results' });
  });
});

describeCorpus('Trivy corpus (facts from MANIFEST.md)', () => {
  it('legacy list (debian 10.8): 93 findings; [0] low CVE-2011-3374, CWE-347, apt 1.8.2.2', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/dd_trivy_legacy-list_debian-10.8.json');
    expect(findings).toHaveLength(93);
    expect(findings[0]).toMatchObject({ severity: 'low', rule: { id: 'CVE-2011-3374', cwe: ['CWE-347'] }, location: { package: { name: 'apt', version: '1.8.2.2' } } });
  });

  it('legacy null: 0 findings', async () => {
    expect((await parseCorpusFile('trivy', 'trivy/dd_trivy_legacy-null.json')).findings).toHaveLength(0);
  });

  it('schema 2 alpine: 5 findings; [0] medium CVE-2020-15999 freetype, [1] high CVE-2020-28196 krb5-libs, with CWEs and fixes', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/dd_trivy_schema2_alpine.json');
    expect(findings).toHaveLength(5);
    expect(findings[0]).toMatchObject({
      severity: 'medium',
      title: 'CVE-2020-15999 in freetype@2.9.1-r2',
      rule: { id: 'CVE-2020-15999', cwe: ['CWE-787'] },
      location: { path: 'app/libs/freetype-2.9.1-r2', package: { name: 'freetype', version: '2.9.1-r2' } },
    });
    expect(findings[0].evidence[0]).toMatchObject({ kind: 'dependency_path', fixed_versions: ['2.9.1-r3'] });
    expect(findings[1]).toMatchObject({
      severity: 'high',
      title: 'CVE-2020-28196 in krb5-libs@1.15.5-r0',
      rule: { id: 'CVE-2020-28196', cwe: ['CWE-674'] },
      location: { package: { name: 'krb5-libs', version: '1.15.5-r0' } },
    });
    // fix_available: a fixed version is given.
    expect(findings[1].evidence[0]).toMatchObject({ fixed_versions: ['1.15.5-r1'] });
    // The CVSS vector DefectDojo asserts (CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:N/A:H) has no field in the finding model yet.
  });

  it('k8s cluster report: 20 findings; [0] CVE-2020-27350 apt medium in default/Deployment/redis-follower; a KSV001 misconfiguration', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/dd_trivy_k8s-cluster.json');
    expect(findings).toHaveLength(20);
    expect(findings[0]).toMatchObject({
      severity: 'medium',
      rule: { id: 'CVE-2020-27350' },
      location: { package: { name: 'apt', version: '1.8.2.1' }, logical: 'default/Deployment/redis-follower' },
    });
    expect(findings[0].title).toBe('CVE-2020-27350 in apt@1.8.2.1');
    expect(findings[0].evidence[0]).toMatchObject({ fixed_versions: ['1.8.2.2'] });
    // DefectDojo's file_path is the scanned image, which the finding names as the layer's artifact.
    expect(findings[0].evidence).toContainEqual(expect.objectContaining({ kind: 'artifact_hash', artifact: 'gcr.io/google_samples/gb-redis-follower:v2 (debian 10.4)' }));
    expect(findings.find((f) => f.rule.id === 'KSV001')).toMatchObject({ severity: 'medium', title: 'Process can elevate its own privileges', location: { logical: 'default/Deployment/redis-follower' } });
  });

  it('k8s resources report: 37 findings; [0] low KSV116 "Runs with a root primary or supplementary GID"', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/dd_trivy_k8s-resources_37-misconfigs.json');
    expect(findings).toHaveLength(37);
    expect(findings[0]).toMatchObject({ severity: 'low', rule: { id: 'KSV116' }, title: 'Runs with a root primary or supplementary GID' });
  });

  it('license scan: 19 findings; [0] high GPL-2.0 (restricted) in alpine-baselayout', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/dd_trivy_licenses.json');
    expect(findings).toHaveLength(19);
    expect(findings[0]).toMatchObject({ severity: 'high', title: 'License GPL-2.0 (restricted) in alpine-baselayout', location: { package: { name: 'alpine-baselayout' } } });
    expect(findings[0].location.path).toBeUndefined(); // DefectDojo's file_path ''
  });

  it('CVSS severity source: 2 findings, [0] medium, [1] high (Trivy\'s own severity; the scores 6.5 / 7.5 and vectors have no field yet)', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/dd_trivy_cvss-severity-source_from-sbom.json');
    expect(findings.map((f) => f.severity)).toEqual(['medium', 'high']);
  });

  it('npm package-lock golden: 1 vulnerability (CVE-2019-11358 on jquery 3.3.9) and the package list as components', async () => {
    const { findings, components } = await parseCorpusFile('trivy', 'trivy/trivy_npm_package-lock.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: { id: 'CVE-2019-11358' }, location: { path: 'package-lock.json', package: { name: 'jquery', version: '3.3.9', purl: 'pkg:npm/jquery@3.3.9' } } });
    expect(components.length).toBeGreaterThan(0);
    expect(components.every((c) => c.purl?.startsWith('pkg:npm/'))).toBe(true);
  });

  it('secrets golden: 2 secrets in deploy.sh, snippets as masked by Trivy', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/trivy_secrets.json');
    expect(findings).toHaveLength(2);
    expect(findings.every((f) => f.location.path === 'deploy.sh')).toBe(true);
    expect(JSON.stringify(findings)).not.toMatch(/AKIA[0-9A-Z]{16}/);
  });

  it('Dockerfile golden: exactly 1 failure, DS002-family "Image user should not be \'root\'", high', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/trivy_dockerfile_DS-0002.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'high', title: "Image user should not be 'root'", location: { path: 'Dockerfile' } });
    expect(findings[0].rule.id).toMatch(/^DS-?0*02$/);
  });

  it('Helm chart golden: 6 misconfigurations, all in templates/deployment.yaml', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/trivy_helm-testchart_misconfig.json');
    expect(findings).toHaveLength(6);
    expect(new Set(findings.map((f) => f.location.path))).toEqual(new Set(['templates/deployment.yaml']));
  });

  it('gomod with and without VEX: 5 vulnerabilities, and the VEX run lacks exactly CVE-2022-23628', async () => {
    const plain = await parseCorpusFile('trivy', 'trivy/trivy_gomod.json');
    const vex = await parseCorpusFile('trivy', 'trivy/trivy_gomod_with-openvex.json');
    expect(plain.findings.map((f) => f.rule.id).sort()).toEqual(['CVE-2021-38561', 'CVE-2022-23628', 'GMS-2022-20', 'GMS-2022-20', 'GMS-2022-20']);
    expect(vex.findings).toHaveLength(4);
    const missing = new Set(fps(plain.findings));
    for (const f of fps(vex.findings)) missing.delete(f);
    expect(plain.findings.filter((f) => missing.has(fps([f])[0])).map((f) => f.rule.id)).toEqual(['CVE-2022-23628']);
  });

  it('debian 9.9 end of life: bash CVE-2019-18276 low without a fix; CVE-2019-5094 on four packages, medium, fixed in 1.43.4-2+deb9u1', async () => {
    const { findings } = await parseCorpusFile('trivy', 'trivy/trivy_debian-9.9_end-of-life.json');
    expect(findings).toHaveLength(5);
    const bash = findings.find((f) => f.rule.id === 'CVE-2019-18276');
    expect(bash).toMatchObject({ severity: 'low', location: { package: { name: 'bash' } } });
    expect(bash?.evidence[0]).not.toHaveProperty('fixed_versions');
    const e2fs = findings.filter((f) => f.rule.id === 'CVE-2019-5094');
    expect(e2fs).toHaveLength(4);
    expect(new Set(fps(e2fs)).size).toBe(4);
    expect(e2fs.every((f) => f.severity === 'medium' && f.evidence[0].kind === 'dependency_path' && f.evidence[0].fixed_versions?.[0] === '1.43.4-2+deb9u1')).toBe(true);
  });
});
