import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ZPalisadeReport, type TPalisadeReport } from '@palisade/contracts';
import { checkoutRepository, runBuiltinTool } from '../src';

const GIT_IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_IDENTITY }, encoding: 'utf8' }).trim();

// Assembled at run time so that this file never holds a token literally.
const GITHUB_TOKEN = `ghp_${'R4nd0mT0k3n'.repeat(3)}xyz`;
const STRIPE_KEY = `sk_live_${'51HxQ2eZvKYlo2C'}${'9Xk3mLp'}`;
const DB_PASSWORD = `Vx9!q${'Lm2#Rt7'}`;

describe('checking out a real repository and scanning it', () => {
  let reports: Record<'secrets' | 'iac', TPalisadeReport>;
  let commit: string;
  let head: string;

  beforeAll(async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'palisade-e2e-'));
    const repo = path.join(root, 'origin');
    const write = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(repo, rel)), { recursive: true });
      await writeFile(path.join(repo, rel), text);
    };
    await mkdir(repo);
    git(repo, 'init', '-q', '-b', 'main');
    await write('src/config.js', `module.exports = {\n  github: '${GITHUB_TOKEN}',\n};\n`);
    await write('.env.production', `STRIPE_KEY=${STRIPE_KEY}\n`);
    await write('deploy/compose.yaml', `services:\n  db:\n    image: postgres\n    environment:\n      POSTGRES_PASSWORD: "${DB_PASSWORD}"\n`);
    await write('Dockerfile', 'FROM node:20-alpine\nADD https://example.com/x.tgz /x.tgz\nUSER node\n');
    await write('vendor/node_modules/dep/index.js', `const t = '${GITHUB_TOKEN}';\n`);
    await write('package-lock.json', `{"token": "${GITHUB_TOKEN}"}\n`);
    await mkdir(path.join(repo, 'k8s'));
    await copyFile(path.join(__dirname, 'fixtures/iac/kubesec_daemonset_privileged.yml'), path.join(repo, 'k8s/agent.yml'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial');
    head = git(repo, 'rev-parse', 'HEAD');

    const checkout = await checkoutRepository({ url: pathToFileURL(repo).href, ref: 'main', into: path.join(root, 'checkout'), allowFileUrls: true });
    commit = checkout.commit;
    reports = { secrets: (await runBuiltinTool('secrets', checkout.dir)).report, iac: (await runBuiltinTool('iac', checkout.dir)).report };
  });

  it('reports the commit it scanned', () => {
    expect(commit).toBe(head);
  });

  it('produces reports that validate against the Palisade report schema', () => {
    for (const report of Object.values(reports)) expect(ZPalisadeReport.parse(report)).toEqual(report);
  });

  it('finds the secrets with repository-relative paths, skipping node_modules and lock files', () => {
    expect(reports.secrets.results.map((r) => [r.location?.path, r.location?.start_line, r.rule_id])).toEqual([
      ['.env.production', 1, 'secrets.stripe-live-key'],
      ['deploy/compose.yaml', 5, 'secrets.generic-assignment'],
      ['src/config.js', 2, 'secrets.github-token'],
    ]);
  });

  it('never puts a raw secret anywhere in either report', () => {
    const json = JSON.stringify(reports);
    for (const secret of [GITHUB_TOKEN, STRIPE_KEY, DB_PASSWORD]) expect(json).not.toContain(secret);
    expect(json).toContain('ghp_****');
  });

  it('finds misconfigurations in the manifest, the Dockerfile and the compose file', () => {
    const found = new Set(reports.iac.results.map((r) => `${r.location?.path} ${r.rule_id}`));
    for (const expected of [
      'k8s/agent.yml iac.k8s.privileged-container',
      'k8s/agent.yml iac.k8s.host-network',
      'k8s/agent.yml iac.k8s.host-pid',
      'k8s/agent.yml iac.k8s.host-path-volume',
      'k8s/agent.yml iac.k8s.secret-in-env',
      'Dockerfile iac.dockerfile.add-from-url',
      'deploy/compose.yaml iac.compose.image-tag-latest',
      'deploy/compose.yaml iac.compose.secret-in-environment',
    ]) {
      expect(found).toContain(expected);
    }
    expect(found).not.toContain('Dockerfile iac.dockerfile.runs-as-root');
    expect(reports.iac.results.every((r) => r.evidence[0]?.kind === 'config_path' && typeof r.fingerprint === 'string')).toBe(true);
  });
});
