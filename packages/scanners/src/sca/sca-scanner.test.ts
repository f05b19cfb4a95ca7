import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ZPalisadeReport } from '@palisade/contracts';
import { runBuiltinTool } from '../run-tool';
import { AdvisoryDirectoryError } from './osv/advisory-store';
import { scanDirectoryForSca } from './sca-scanner';

// The corpus holds real GitHub advisories in OSV format (MANIFEST.md, advisories-osv/).
const ADVISORIES = path.resolve(__dirname, '../../../../../shared/corpus/advisories-osv');

async function checkout(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-sca-'));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

/** A package-lock.json v3 (npm 7+) for the given installs: `node_modules/...` path → version. */
function npmLock(root: Record<string, string>, installs: Record<string, { version: string; dependencies?: Record<string, string> }>): string {
  const packages: Record<string, unknown> = { '': { name: 'app', version: '1.0.0', dependencies: root } };
  for (const [at, entry] of Object.entries(installs)) packages[at] = { ...entry, resolved: `https://registry.example/${at}.tgz`, integrity: 'sha512-x' };
  return JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

const ruleIds = (results: Array<{ rule_id: string }>) => results.map((r) => r.rule_id).sort();

describe('scanDirectoryForSca against OSV advisories', () => {
  it('matches npm releases inside an advisory range, and not those outside it', async () => {
    const dir = await checkout({
      'package.json': JSON.stringify({ dependencies: { lodash: '^4.17.0', express: '4.18.0', ip: '*' } }),
      'package-lock.json': npmLock(
        { lodash: '^4.17.0', express: '4.18.0', ip: '*' },
        {
          'node_modules/lodash': { version: '4.17.20' }, // GHSA-35jh-r3h4-6jhm: fixed 4.17.21
          'node_modules/express': { version: '4.18.0', dependencies: { qs: '6.10.1' } }, // GHSA-rv95 (<4.19.2), GHSA-qw6h (<4.20.0)
          'node_modules/qs': { version: '6.10.1' }, // GHSA-hrpp-h998-j3pp: 6.10.0 ≤ v < 6.10.3
          'node_modules/ip': { version: '1.1.8' }, // GHSA-78xj-cgh5-2h22: last_affected 1.1.8
          'node_modules/minimist': { version: '1.2.6' }, // GHSA-xvch-5gv4-984h: fixed at 1.2.6, so not affected
          'node_modules/word-wrap': { version: '1.2.3' }, // the stored GHSA-j8xg revision names "GitHub Actions", not npm
        },
      ),
    });
    const scan = await scanDirectoryForSca(dir, { advisoryDir: ADVISORIES });
    expect(ruleIds(scan.results)).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-78xj-cgh5-2h22', 'GHSA-hrpp-h998-j3pp', 'GHSA-qw6h-vgh9-j6wx', 'GHSA-rv95-896h-c2vc']);
    expect(scan.lockfiles).toEqual([{ path: 'package-lock.json', components: 6 }]);
    expect(scan.components.find((c) => c.name === 'lodash')).toMatchObject({ purl: 'pkg:npm/lodash@4.17.20', direct: true });

    const lodash = scan.results.find((r) => r.rule_id === 'GHSA-35jh-r3h4-6jhm')!;
    expect(lodash).toMatchObject({ severity: 'high', cve: ['CVE-2021-23337'], location: { path: 'package-lock.json' } });
    expect(lodash.evidence).toEqual([
      { kind: 'dependency_path', path: ['pkg:npm/lodash@4.17.20'], package: { name: 'lodash', version: '4.17.20', purl: 'pkg:npm/lodash@4.17.20', ecosystem: 'npm' }, fixed_versions: ['4.17.21'] },
    ]);
    // qs is reached through express: the path says so.
    const qs = scan.results.find((r) => r.rule_id === 'GHSA-hrpp-h998-j3pp')!;
    expect(qs.evidence?.[0]).toMatchObject({ kind: 'dependency_path', path: ['pkg:npm/express@4.18.0', 'pkg:npm/qs@6.10.1'], fixed_versions: ['6.10.3'] });
    expect(ZPalisadeReport.parse({ format: 'palisade', version: 1, tool: { name: 'sca', version: '1' }, results: scan.results })).toBeTruthy();
    expect(scan.summary).toMatch(/Read 1 lockfile \(package-lock.json\): 6 components\. Matched against \d+ advisory files .*: 5 vulnerable packages\./);
  });

  it('matches a package name regardless of case, as the npm registry does (GHSA-8hc4 names "Axios")', async () => {
    const dir = await checkout({ 'package-lock.json': npmLock({ axios: '1.5.0' }, { 'node_modules/axios': { version: '1.5.0' } }) });
    const scan = await scanDirectoryForSca(dir, { advisoryDir: ADVISORIES });
    expect(ruleIds(scan.results)).toEqual(['GHSA-8hc4-vh64-cxmj', 'GHSA-wf5p-g6vw-rhxx']);
  });

  it('gives every finding a fingerprint that survives a rescan and differs per lockfile', async () => {
    const lock = npmLock({ lodash: '4.17.20' }, { 'node_modules/lodash': { version: '4.17.20' } });
    const dir = await checkout({ 'package-lock.json': lock, 'web/package-lock.json': lock });
    const first = await scanDirectoryForSca(dir, { advisoryDir: ADVISORIES });
    const again = await scanDirectoryForSca(dir, { advisoryDir: ADVISORIES });
    expect(first.results.map((r) => r.fingerprint)).toEqual(again.results.map((r) => r.fingerprint));
    expect(new Set(first.results.map((r) => r.fingerprint)).size).toBe(2);
    expect(first.results.map((r) => r.location?.path).sort()).toEqual(['package-lock.json', 'web/package-lock.json']);
  });

  it('reads yarn.lock and pnpm-lock.yaml', async () => {
    const dir = await checkout({
      'yarn/yarn.lock': ['# yarn lockfile v1', '', 'minimist@^1.2.0:', '  version "1.2.5"', '  resolved "https://registry.example/minimist-1.2.5.tgz"', ''].join('\n'),
      'pnpm/pnpm-lock.yaml': ["lockfileVersion: '6.0'", '', 'packages:', '', '  /json5@2.2.1:', '    resolution: {integrity: sha512-x}', '    dev: false', ''].join('\n'),
    });
    const scan = await scanDirectoryForSca(dir, { advisoryDir: ADVISORIES });
    expect(scan.results.map((r) => [r.location?.path, r.rule_id]).sort()).toEqual([
      ['pnpm/pnpm-lock.yaml', 'GHSA-9c47-m6qq-7p4h'],
      ['yarn/yarn.lock', 'GHSA-xvch-5gv4-984h'],
    ]);
  });

  it('lists the packages of other ecosystems with their package URLs', async () => {
    const dir = await checkout({
      'requirements.txt': 'Django==3.2.9\nrequests>=2.0  # a range pins nothing\n',
      'Cargo.lock': ['version = 3', '', '[[package]]', 'name = "smallvec"', 'version = "1.6.0"', 'source = "registry+https://github.com/rust-lang/crates.io-index"', ''].join('\n'),
      'go.mod': 'module example.com/app\n\ngo 1.21\n\nrequire golang.org/x/text v0.3.7\n',
    });
    const scan = await scanDirectoryForSca(dir, {});
    expect(scan.components.map((c) => c.purl).sort()).toEqual(['pkg:cargo/smallvec@1.6.0', 'pkg:golang/golang.org/x/text@v0.3.7', 'pkg:pypi/django@3.2.9']);
    expect(scan.results).toEqual([]);
    expect(scan.summary).toContain('No advisory database is configured (PALISADE_ADVISORY_DIR)');
  });

  it('names a lockfile it cannot parse and still scans the others', async () => {
    const dir = await checkout({
      'broken/package-lock.json': '{"lockfileVersion": 3, "packages": ',
      'package-lock.json': npmLock({ lodash: '4.17.20' }, { 'node_modules/lodash': { version: '4.17.20' } }),
    });
    const scan = await scanDirectoryForSca(dir, { advisoryDir: ADVISORIES });
    expect(ruleIds(scan.results)).toEqual(['GHSA-35jh-r3h4-6jhm']);
    expect(scan.lockfiles.find((l) => l.path === 'broken/package-lock.json')?.error).toEqual(expect.any(String));
    expect(scan.summary).toContain('Could not read broken/package-lock.json');
  });

  it('refuses an advisory directory it cannot read rather than report an all-clear', async () => {
    const dir = await checkout({ 'package-lock.json': npmLock({}, { 'node_modules/lodash': { version: '4.17.20' } }) });
    await expect(scanDirectoryForSca(dir, { advisoryDir: path.join(dir, 'no-such-dir') })).rejects.toBeInstanceOf(AdvisoryDirectoryError);
  });

  it('runs as the built-in sca tool and reports what it read', async () => {
    const dir = await checkout({ 'package-lock.json': npmLock({ lodash: '4.17.20' }, { 'node_modules/lodash': { version: '4.17.20' } }) });
    const run = await runBuiltinTool('sca', dir, { advisoryDir: ADVISORIES });
    expect(run.report.tool.name).toBe('sca');
    expect(ruleIds(run.report.results)).toEqual(['GHSA-35jh-r3h4-6jhm']);
    expect(run.summary).toContain('1 vulnerable package');
  });
});
