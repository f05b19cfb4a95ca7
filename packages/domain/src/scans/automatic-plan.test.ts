import { BUILTIN_SCA_LOCKFILES, isBuiltinScaFile, planAutomatic } from './automatic-plan';

const repo = { kind: 'repository' } as const;

describe('planAutomatic for a repository', () => {
  it('always runs secrets, even on an empty repository', () => {
    expect(planAutomatic(repo, [])).toEqual({ tools: ['secrets'], reason: ['secrets: always run on a repository'] });
  });

  it('says so when the files were not listed', () => {
    expect(planAutomatic(repo)).toEqual({
      tools: ['secrets'],
      reason: ['secrets: always run on a repository', 'sca, iac: repository files not listed, so not chosen'],
    });
  });

  it('adds sca for a lockfile and names it in the reason', () => {
    expect(planAutomatic(repo, ['README.md', 'package.json', 'package-lock.json'])).toEqual({
      tools: ['secrets', 'sca'],
      reason: ['secrets: always run on a repository', 'sca: found package-lock.json'],
    });
  });

  it.each([
    ['services/api/requirements-dev.txt'],
    ['requirements/prod.txt'],
    ['poetry.lock'],
    ['Pipfile.lock'],
    ['go.sum'],
    ['Cargo.lock'],
    ['Gemfile.lock'],
    ['composer.lock'],
    ['yarn.lock'],
    ['pnpm-lock.yaml'],
    ['uv.lock'],
    ['go.mod'],
    ['gradle.lockfile'],
  ])('adds sca for %s, a file the built-in sca reads', (file) => {
    expect(planAutomatic(repo, [file])).toEqual({ tools: ['secrets', 'sca'], reason: ['secrets: always run on a repository', `sca: found ${file}`] });
  });

  it.each([['pom.xml'], ['app/build.gradle'], ['build.gradle.kts'], ['src/App/App.csproj'], ['package.json'], ['mix.lock']])(
    'does not add sca for %s alone, which pins no versions the built-in sca reads, and says why',
    (file) => {
      expect(planAutomatic(repo, [file])).toEqual({
        tools: ['secrets'],
        reason: ['secrets: always run on a repository', `sca: found ${file} but no lockfile the built-in sca reads, so not chosen; commit a lockfile or name an external SCA tool`],
      });
    },
  );

  it('knows which files the built-in sca reads', () => {
    for (const name of BUILTIN_SCA_LOCKFILES) expect(isBuiltinScaFile(`sub/${name}`)).toBe(true);
    expect(isBuiltinScaFile('requirements/dev.txt')).toBe(true);
    expect(isBuiltinScaFile('package.json')).toBe(false);
    expect(isBuiltinScaFile('docs/requirements.md')).toBe(false);
  });

  it('lists the reasons for tools not chosen after the chosen ones', () => {
    expect(planAutomatic(repo, ['pom.xml', 'Dockerfile']).reason).toEqual([
      'secrets: always run on a repository',
      'iac: found Dockerfile',
      'sca: found pom.xml but no lockfile the built-in sca reads, so not chosen; commit a lockfile or name an external SCA tool',
    ]);
  });

  it('prefers the shallowest lockfile over a manifest for the reason', () => {
    const plan = planAutomatic(repo, ['package.json', 'test/fixtures/app/yarn.lock', 'yarn.lock']);
    expect(plan.reason).toContain('sca: found yarn.lock');
  });

  it('ignores vendored dependencies', () => {
    expect(planAutomatic(repo, ['node_modules/x/package.json', 'vendor/github.com/y/go.mod', 'node_modules/z/Dockerfile']).tools).toEqual(['secrets']);
  });

  it.each([
    ['k8s/deployment.yaml', 'Kubernetes manifest'],
    ['deploy/overlays/prod/kustomization.yaml', 'Kubernetes manifest'],
    ['charts/app/Chart.yaml', 'Kubernetes manifest'],
    ['docker/Dockerfile', 'Dockerfile'],
    ['docker/api.Dockerfile', 'Dockerfile'],
    ['docker-compose.yml', 'compose file'],
    ['compose.prod.yaml', 'compose file'],
    ['infra/main.tf', 'Terraform'],
  ])('adds iac for %s', (file, what) => {
    expect(planAutomatic(repo, [file])).toEqual({ tools: ['secrets', 'iac'], reason: ['secrets: always run on a repository', `iac: found ${file}${file.split('/').pop() === what ? '' : ` (${what})`}`] });
  });

  it('does not take workflow files or arbitrary YAML for infrastructure', () => {
    expect(planAutomatic(repo, ['.github/workflows/ci.yml', 'config/app.yaml', 'mkdocs.yml']).tools).toEqual(['secrets']);
  });

  it('chooses all three tools in a stable order with one reason each', () => {
    const plan = planAutomatic(repo, ['Dockerfile', 'src/index.ts', 'go.sum', 'go.mod']);
    expect(plan).toEqual({
      tools: ['secrets', 'sca', 'iac'],
      reason: ['secrets: always run on a repository', 'sca: found go.sum', 'iac: found Dockerfile'],
    });
  });
});

describe('planAutomatic for other target kinds', () => {
  it.each([
    ['image', ['image', 'sca']],
    ['kubernetes', ['kubernetes']],
    ['url', ['dast']],
    ['sbom', ['sca']],
  ] as const)('plans %s', (kind, tools) => {
    const plan = planAutomatic({ kind });
    expect(plan.tools).toEqual(tools);
    expect(plan.reason).toHaveLength(tools.length);
    plan.reason.forEach((line, i) => expect(line.startsWith(`${tools[i]}: `)).toBe(true));
  });

  it('plans nothing for an other target and says why', () => {
    const plan = planAutomatic({ kind: 'other' });
    expect(plan.tools).toEqual([]);
    expect(plan.reason[0]).toMatch(/name the tools/);
  });

  it('ignores repository files for non-repository targets', () => {
    expect(planAutomatic({ kind: 'url' }, ['package-lock.json']).tools).toEqual(['dast']);
  });
});
