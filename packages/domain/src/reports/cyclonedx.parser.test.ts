import { parseReportBuffer } from './parse-report';
import { describeCorpus, parseCorpusFile } from './testing/corpus';

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

  it('rejects what is not CycloneDX JSON', async () => {
    await expect(parseReportBuffer('cyclonedx', '{"bomFormat":"SPDX"}')).rejects.toMatchObject({ code: 'invalid_shape', pointer: '/bomFormat' });
    await expect(parseReportBuffer('cyclonedx', bom({ specVersion: '2.0' }))).rejects.toMatchObject({ code: 'unsupported_version' });
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
