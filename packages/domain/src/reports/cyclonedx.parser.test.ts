import { computeFingerprint } from '../findings/fingerprint';
import type { TNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

const fp = (f: TNormalizedFinding): string => computeFingerprint({ entityKey: 'image:x', tool: f.tool, finding: f });
const bom = (over: object): string => JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 1, ...over });

describe('CycloneDX parser', () => {
  it('resolves affects refs to components, builds dependency paths from the graph, and reads VEX analysis', async () => {
    const items = await parseReportBuffer(
      'cyclonedx',
      bom({
        metadata: { component: { 'bom-ref': 'app', name: 'app' }, tools: { components: [{ name: 'Trivy', version: '0.50.0' }] } },
        components: [
          { 'bom-ref': 'lib-a', name: 'a', version: '1.0.0', purl: 'pkg:npm/a@1.0.0', licenses: [{ license: { id: 'MIT' } }] },
          { 'bom-ref': 'lib-b', name: 'b', group: '@scope', version: '2.0.0', purl: 'pkg:npm/%40scope/b@2.0.0', hashes: [{ alg: 'SHA-256', content: 'cd'.repeat(32) }] },
        ],
        dependencies: [
          { ref: 'app', dependsOn: ['lib-a'] },
          { ref: 'lib-a', dependsOn: ['lib-b'] },
        ],
        vulnerabilities: [
          { id: 'CVE-2024-0001', ratings: [{ severity: 'low' }, { score: 9.1, method: 'CVSSv31' }], cwes: [79], affects: [{ ref: 'lib-b' }] },
          { id: 'GHSA-xxxx-yyyy-zzzz', references: [{ id: 'CVE-2024-0002' }], analysis: { state: 'not_affected', justification: 'code_not_reachable' }, affects: [{ ref: 'lib-a' }] },
          { id: 'CVE-2024-0003', affects: [{ ref: 'lib-a', versions: [{ version: '1.0.0', status: 'unaffected' }] }] },
        ],
      }),
      { tool: 'trivy' },
    );
    const components = items.flatMap((i) => (i.type === 'component' ? [i.component] : []));
    expect(components).toEqual([
      { name: 'a', version: '1.0.0', purl: 'pkg:npm/a@1.0.0', licenses: ['MIT'], bom_ref: 'lib-a' },
      { name: 'b', group: '@scope', version: '2.0.0', purl: 'pkg:npm/%40scope/b@2.0.0', licenses: [], bom_ref: 'lib-b' },
    ]);
    const fs = items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs).toHaveLength(2);
    expect(fs[0]).toMatchObject({
      tool: 'trivy',
      source_tool: { name: 'Trivy', version: '0.50.0' },
      severity: 'critical',
      rule: { id: 'CVE-2024-0001', cwe: ['CWE-79'], cve: ['CVE-2024-0001'] },
      location: { package: { name: '@scope/b', version: '2.0.0', ecosystem: 'npm' } },
    });
    expect(fs[0].evidence).toContainEqual(expect.objectContaining({ kind: 'dependency_path', path: ['app', 'pkg:npm/a@1.0.0', 'pkg:npm/%40scope/b@2.0.0'] }));
    expect(fs[0].evidence).toContainEqual({ kind: 'artifact_hash', algorithm: 'sha-256', digest: 'cd'.repeat(32), artifact: 'pkg:npm/%40scope/b@2.0.0' });
    expect(fs[1]).toMatchObject({ severity: 'info', rule: { cve: ['CVE-2024-0002'] }, suppression: { kind: 'vex', status: 'not_affected', justification: 'code_not_reachable' } });
  });

  it('holds vulnerabilities listed before the components until the refs can resolve', async () => {
    const body = '{"bomFormat":"CycloneDX","specVersion":"1.4","vulnerabilities":[{"id":"CVE-1","affects":[{"ref":"r1"}]}],"components":[{"bom-ref":"r1","name":"late","version":"3"}]}';
    const fs = (await parseReportBuffer('cyclonedx', body)).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs[0].location.package).toEqual({ name: 'late', version: '3' });
  });

  it("resolves an affects ref to the BOM's own subject (metadata.component), without listing it as a component", async () => {
    const body = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.4',
      metadata: { component: { 'bom-ref': 'app', type: 'application', name: 'storefront', group: 'acme', version: '2.4.1', purl: 'pkg:npm/%40acme/storefront@2.4.1' } },
      components: [{ 'bom-ref': 'lib', name: 'lodash', version: '4.17.20' }],
      vulnerabilities: [{ id: 'CVE-2024-1', affects: [{ ref: 'app' }] }],
    });
    const items = await parseReportBuffer('cyclonedx', body);
    expect(items.filter((i) => i.type === 'component').map((i) => (i.type === 'component' ? i.component.name : ''))).toEqual(['lodash']);
    const [f] = items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(f.location.package).toEqual({ name: 'acme/storefront', version: '2.4.1', purl: 'pkg:npm/%40acme/storefront@2.4.1', ecosystem: 'npm' });
  });

  it('decides an affects entry by the installed version when it is listed; shows ranges; VEX response in the justification', async () => {
    const body = bom({
      components: [
        { 'bom-ref': 'c1', name: 'lib', version: '2.0.0' },
        { 'bom-ref': 'c2', name: 'other', version: '1.1.0' },
      ],
      vulnerabilities: [
        {
          id: 'CVE-2024-1000',
          references: [{ id: 'GHSA-aaaa-bbbb-cccc' }, { id: 'CVE-2024-1000' }],
          recommendation: 'Upgrade to 2.0.1.',
          analysis: { state: 'resolved', response: ['update'] },
          affects: [
            { ref: 'c1', versions: [{ version: '1.0.0', status: 'unaffected' }, { version: '2.0.0', status: 'affected' }, { range: 'vers:semver/>=2.0.0|<2.0.1', status: 'affected' }] },
            { ref: 'c2', versions: [{ version: '1.1.0', status: 'unaffected' }, { range: 'vers:semver/<1.0.0', status: 'affected' }] },
          ],
        },
      ],
    });
    const fs = (await parseReportBuffer('cyclonedx', body)).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({
      rule: { id: 'CVE-2024-1000', cve: ['CVE-2024-1000'], aliases: ['GHSA-aaaa-bbbb-cccc'] },
      location: { package: { name: 'lib', version: '2.0.0' } },
      suppression: { kind: 'vex', status: 'resolved', justification: '(response: update)' },
    });
    expect(fs[0].message).toBe('Recommendation: Upgrade to 2.0.1.\n\nAffected versions: vers:semver/>=2.0.0|<2.0.1');
  });

  it('tolerates the shapes other versions write: legacy tools array, null sections, string scores, refs that resolve nowhere', async () => {
    const body = bom({
      specVersion: '1.2',
      metadata: { tools: [{ vendor: 'x', name: 'old-tool', version: '1' }], component: null },
      components: [{ 'bom-ref': 'a', name: 'a', version: '1', licenses: null, hashes: null, components: null }, { name: '' }],
      dependencies: null,
      vulnerabilities: [
        { id: 'CVE-1', ratings: [{ score: '7.5' }, null, { severity: 'unknown' }], cwes: ['79', null], affects: [{ ref: 'pkg:npm/%40s/left@1.2.3' }, { ref: 'nowhere' }, { ref: null }, null] },
        { id: 'CVE-2', ratings: null, affects: null, analysis: null },
      ],
    });
    const items = await parseReportBuffer('cyclonedx', body);
    const fs = items.flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => [f.rule.id, f.severity, f.location.package?.name, f.location.package?.version, f.source_tool?.name])).toEqual([
      ['CVE-1', 'high', '@s/left', '1.2.3', 'old-tool'],
      ['CVE-1', 'high', 'nowhere', undefined, 'old-tool'],
      ['CVE-2', 'info', undefined, undefined, 'old-tool'],
    ]);
    expect(fs[0].rule.cwe).toEqual(['CWE-79']);
    expect(items.filter((i) => i.type === 'component')).toHaveLength(1);
  });

  it('names a package resolved only through its purl as a listed component would be named: distro packages without the distro', async () => {
    const body = bom({
      specVersion: '1.5',
      components: [{ 'bom-ref': 'pkg:apk/alpine/busybox@1.33.1-r3?distro=3.14.2', type: 'library', name: 'busybox', version: '1.33.1-r3', purl: 'pkg:apk/alpine/busybox@1.33.1-r3?distro=3.14.2' }],
      vulnerabilities: [
        {
          id: 'CVE-2021-42378',
          affects: [
            { ref: 'pkg:apk/alpine/busybox@1.33.1-r3?distro=3.14.2' },
            { ref: 'pkg:apk/alpine/ssl_client@1.33.1-r3?distro=3.14.2' },
            { ref: 'pkg:deb/debian/curl@7.74.0-1.3' },
            { ref: 'pkg:rpm/redhat/openssl@1.1.1k-5.el8' },
            { ref: 'pkg:npm/%40angular/core@12.0.0' },
            { ref: 'pkg:maven/org.springframework/spring-web@5.3.20' },
            { ref: 'pkg:golang/github.com/gin-gonic/gin@1.7.0' },
          ],
        },
      ],
    });
    const fs = (await parseReportBuffer('cyclonedx', body)).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fs.map((f) => f.location.package?.name)).toEqual([
      'busybox',
      'ssl_client',
      'curl',
      'openssl',
      '@angular/core',
      'org.springframework/spring-web',
      'github.com/gin-gonic/gin',
    ]);
  });

  it("names a component without a group by its purl's namespace too (syft's Maven artifacts), so a VEX that names only the purl gives the same identity", async () => {
    const purl = 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1';
    const vulnerabilities = [{ id: 'CVE-2021-44228', ratings: [{ method: 'CVSSv31', score: 10 }], affects: [{ ref: purl }] }];
    const listed = bom({ specVersion: '1.5', components: [{ 'bom-ref': 'syft-ref-1', type: 'library', name: 'log4j-core', version: '2.14.1', purl }, { 'bom-ref': 'p', name: 'Django', version: '4.2', purl: 'pkg:pypi/django@4.2' }], vulnerabilities });
    const vexOnly = bom({ specVersion: '1.5', vulnerabilities });
    const [fromBom] = (await parseReportBuffer('cyclonedx', listed)).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    const [fromVex] = (await parseReportBuffer('cyclonedx', vexOnly)).flatMap((i) => (i.type === 'finding' ? [i.finding] : []));
    expect(fromBom.location.package?.name).toBe('org.apache.logging.log4j/log4j-core');
    expect(fp(fromVex)).toBe(fp(fromBom));
  });

  it('reads a bare score on the CVSS scale only when the rating is a CVSS one', async () => {
    const rated = async (ratings: object[]) => (await parseReportBuffer('cyclonedx', bom({ specVersion: '1.6', vulnerabilities: [{ id: 'CVE-1', ratings, affects: [{ ref: 'pkg:npm/a@1' }] }] })))[0];
    const severityOf = async (ratings: object[]) => {
      const item = await rated(ratings);
      return item.type === 'finding' ? item.finding.severity : undefined;
    };
    expect(await severityOf([{ method: 'OWASP', score: 7.5 }])).toBe('info');
    expect(await severityOf([{ method: 'OWASP', score: 36, severity: 'high' }])).toBe('high');
    expect(await severityOf([{ method: 'CVSSv4', score: 7.5 }])).toBe('high');
    expect(await severityOf([{ score: 9.8 }])).toBe('critical');
  });

  it('refuses a dependency graph entry without a ref, naming the field', async () => {
    const withDeps = (dependencies: unknown): string => bom({ components: [{ 'bom-ref': 'a', name: 'a' }], dependencies });
    await expect(parseReportBuffer('cyclonedx', withDeps([{ dependsOn: [] }]))).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/dependencies/0/ref' });
    await expect(parseReportBuffer('cyclonedx', withDeps([{ ref: 'a' }, { ref: '', dependsOn: ['a'] }]))).rejects.toMatchObject({ pointer: '/dependencies/1/ref' });
    await expect(parseReportBuffer('cyclonedx', withDeps([{ ref: 7 }]))).rejects.toMatchObject({ pointer: '/dependencies/0/ref' });
    await expect(parseReportBuffer('cyclonedx', withDeps([{ ref: 'a', dependsOn: [''] }]))).rejects.toMatchObject({ pointer: '/dependencies/0/dependsOn/0' });
    await expect(parseReportBuffer('cyclonedx', withDeps([{ ref: 'a', dependsOn: 'b' }]))).rejects.toMatchObject({ pointer: '/dependencies/0/dependsOn' });
    await expect(parseReportBuffer('cyclonedx', withDeps([null]))).rejects.toMatchObject({ pointer: '/dependencies/0' });
    await expect(parseReportBuffer('cyclonedx', withDeps({ ref: 'a' }))).rejects.toMatchObject({ pointer: '/dependencies' });
    // Entries without dependsOn, or with an empty one, are valid (a leaf of the graph).
    await expect(parseReportBuffer('cyclonedx', withDeps([{ ref: 'a' }, { ref: 'b', dependsOn: [] }]))).resolves.toHaveLength(1);
  });

  it('rejects what is not CycloneDX JSON', async () => {
    await expect(parseReportBuffer('cyclonedx', '{"bomFormat":"SPDX"}')).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/bomFormat' });
    await expect(parseReportBuffer('cyclonedx', bom({ specVersion: '2.0' }))).rejects.toMatchObject({ code: 'unsupported_version' });
    await expect(parseReportBuffer('cyclonedx', bom({ specVersion: 'x' }))).rejects.toMatchObject({ code: 'unsupported_version' });
    for (const specVersion of [1.4, '1.4.0', ' 1.6 ']) await expect(parseReportBuffer('cyclonedx', bom({ specVersion }))).resolves.toEqual([]);
    await expect(parseReportBuffer('cyclonedx', '{"components":[]}')).rejects.toMatchObject({ code: 'invalid_shape' });
    await expect(parseReportBuffer('cyclonedx', bom({ vulnerabilities: {} }))).rejects.toMatchObject({ pointer: '/vulnerabilities' });
  });
});

describeCorpus('CycloneDX corpus (facts from MANIFEST.md)', () => {
  it('Trivy 0.48.1 CDX 1.5: 14 findings (one per affected ref), 102 components; [1] has no description', async () => {
    const { findings, components } = await parseCorpusFile('cyclonedx', 'cyclonedx/dd_trivy-0.48.1_cdx-1.5.json');
    expect(findings).toHaveLength(14);
    expect(components).toHaveLength(102);
    expect(findings[1].message).toBeUndefined();
    expect(findings[0].tool).toBe('trivy');
  });

  it.each([['cyclonedx/dd_grype-0.41.0_log4j_cdx-1.4.json'], ['cyclonedx/dd_grype-0.41.0_log4j_nested-components_cdx-1.4.json']])(
    '%s: 8 findings; [0] CVE-2021-44228 on log4j-core 2.13.2, critical',
    async (file) => {
      const { findings } = await parseCorpusFile('cyclonedx', file);
      expect(findings).toHaveLength(8);
      expect(findings[0]).toMatchObject({ severity: 'critical', rule: { id: 'CVE-2021-44228' }, location: { package: { version: '2.13.2' } } });
      expect(findings[0].location.package?.name).toMatch(/log4j-core$/);
      expect(findings[0].title).toContain('log4j-core@2.13.2');
    },
  );

  it('spec 1.6 valid-vulnerability: accepted; 1 finding on jackson-databind 2.9.4 with its vers: ranges, CWEs, and the VEX analysis as a dismissal', async () => {
    const { findings, components } = await parseCorpusFile('cyclonedx', 'cyclonedx/cdx-spec_valid-vulnerability-1.6.json');
    expect(components).toHaveLength(1);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'critical',
      rule: { id: 'SNYK-JAVA-COMFASTERXMLJACKSONCORE-32111', cwe: ['CWE-184', 'CWE-502'], cve: ['CVE-2018-7489'] },
      location: { package: { name: 'com.fasterxml.jackson.core/jackson-databind', version: '2.9.4', ecosystem: 'maven' } },
      suppression: {
        kind: 'vex',
        status: 'not_affected',
        justification: 'code_not_reachable: An optional explanation of why the application is not affected by the vulnerable component. (response: will_not_fix, update)',
      },
    });
    expect(findings[0].message).toContain('Recommendation: Upgrade com.fasterxml.jackson.core:jackson-databind to version 2.6.7.5, 2.8.11.1, 2.9.5 or higher.');
    expect(findings[0].message).toContain('Affected versions: vers:semver/<2.6.7.5, vers:semver/2.7.0|<2.8.11.1, vers:semver/2.9.0|<2.9.5');
  });

  it('spec 1.6 invalid-dependency (must fail schema validation): refused, naming dependencies[0].ref', async () => {
    await expect(parseCorpusFile('cyclonedx', 'cyclonedx/cdx-spec_invalid-dependency-1.6.json')).rejects.toMatchObject({
      name: 'ReportParseError',
      code: 'invalid_shape',
      pointer: '/dependencies/0/ref',
    });
  });

  it('CDX 1.4 vulnerability with VEX analysis: 1 critical finding, CWE-184 and CWE-502, ids SNYK + CVE, dismissed by the analysis', async () => {
    const { findings } = await parseCorpusFile('cyclonedx', 'cyclonedx/dd_valid-vulnerability-1.4_vex-analysis.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'critical',
      rule: { id: 'SNYK-JAVA-COMFASTERXMLJACKSONCORE-32111', cwe: ['CWE-184', 'CWE-502'], cve: ['CVE-2018-7489'] },
      location: { package: { version: '2.9.4' } },
      suppression: { kind: 'vex', status: 'not_affected' },
    });
    expect(findings[0].location.package?.name).toMatch(/jackson-databind$/);
  });

  it('standalone VEX: CVE-2020-25649 on jackson-databind 2.10.0 through a BOM-Link, not affected (code_not_reachable), rated high', async () => {
    const { findings } = await parseCorpusFile('cyclonedx', 'cyclonedx/bom-examples_vex_standalone_cdx-1.4.json');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: { id: 'CVE-2020-25649' },
      severity: 'high',
      location: { package: { version: '2.10.0', ecosystem: 'maven' } },
      suppression: { kind: 'vex', status: 'not_affected', justification: expect.stringContaining('code_not_reachable') },
    });
  });

  it('Trivy npm CDX 1.7: 13 components, 1 vulnerability; grype CDX 1.7: 2 components, CVE-1999-0001/0002', async () => {
    const trivy = await parseCorpusFile('cyclonedx', 'cyclonedx/trivy_npm_cdx-1.7.json');
    expect([trivy.components.length, trivy.findings.length]).toEqual([13, 1]);
    const grype = await parseCorpusFile('cyclonedx', 'cyclonedx/grype_presenter_image_cdx-1.7.json');
    expect(grype.components).toHaveLength(2);
    expect(grype.findings.map((f) => f.rule.id)).toEqual(['CVE-1999-0001', 'CVE-1999-0002']);
  });

  it('SBOMs without vulnerabilities: laravel 62 components (1.4), dropwizard 167 (1.2), companion BOM 3, license expression kept', async () => {
    expect((await parseCorpusFile('cyclonedx', 'cyclonedx/bom-examples_laravel-7.12.0_cdx-1.4.json')).components).toHaveLength(62);
    const dropwizard = await parseCorpusFile('cyclonedx', 'cyclonedx/bom-examples_dropwizard-1.3.15_cdx-1.2.json');
    expect([dropwizard.components.length, dropwizard.findings.length]).toEqual([167, 0]);
    expect((await parseCorpusFile('cyclonedx', 'cyclonedx/bom-examples_vex_companion-bom_cdx-1.3.json')).components).toHaveLength(3);
    const expr = await parseCorpusFile('cyclonedx', 'cyclonedx/cdx-spec_valid-license-expression-1.6.json');
    expect(expr.components[0].licenses[0]).toMatch(/ (AND|OR|WITH) /);
  });

  it('spec 1.6 assembly: nested components are flattened', async () => {
    const { components } = await parseCorpusFile('cyclonedx', 'cyclonedx/cdx-spec_valid-assembly-1.6.json');
    expect(components.map((c) => c.name)).toEqual(['acme-library-a', 'acme-library-b']);
  });
});
