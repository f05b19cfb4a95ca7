import { iacFileKind, scanIacText } from './iac-scanner';

const evidenceOf = (r: { evidence: unknown[] }) => r.evidence[0] as { path: string; line?: number; actual?: string };

const compose = `services:
  web:
    image: nginx
    privileged: true
    network_mode: host
    environment:
      DB_PASSWORD: pr0dPassw0rd
      DB_HOST: db
      API_TOKEN: \${API_TOKEN}
  worker:
    build: .
    image: myorg/worker:latest
    pid: host
    environment:
      - STRIPE_SECRET=live123abc456
      - LOG_LEVEL=debug
      - GITHUB_TOKEN
  db:
    image: postgres:16.4
`;

describe('compose checks', () => {
  it('flags privileged, host network and pid, floating images and literal secrets', () => {
    const results = scanIacText('docker-compose.yml', compose);
    expect(results.map((r) => [r.rule_id, evidenceOf(r).path, evidenceOf(r).line])).toEqual([
      ['iac.compose.privileged', 'services.web.privileged', 4],
      ['iac.compose.host-network', 'services.web.network_mode', 5],
      ['iac.compose.image-tag-latest', 'services.web.image', 3],
      ['iac.compose.secret-in-environment', 'services.web.environment.DB_PASSWORD', 7],
      ['iac.compose.host-pid', 'services.worker.pid', 13],
      ['iac.compose.secret-in-environment', 'services.worker.environment[0]', 15],
    ]);
    expect(JSON.stringify(results)).not.toMatch(/pr0dPassw0rd|live123abc456/);
  });

  it('recognises compose files by name and leaves other YAML to the Kubernetes checks', () => {
    expect(['compose.yaml', 'docker-compose.prod.yml', 'deploy/compose.override.yml'].map(iacFileKind)).toEqual(['compose', 'compose', 'compose']);
    expect(['Dockerfile', 'build/api.Dockerfile', 'Containerfile', 'k8s/app.yaml', 'pnpm-lock.yaml', 'main.tf'].map(iacFileKind)).toEqual([
      'dockerfile',
      'dockerfile',
      'dockerfile',
      'yaml',
      null,
      null,
    ]);
    expect(scanIacText('k8s/not-compose.yaml', compose)).toEqual([]);
  });
});
