import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scanIacText } from './iac-scanner';

const FIXTURES = path.join(__dirname, '../../test/fixtures/iac');
const scanFixture = (name: string) => scanIacText(name, readFileSync(path.join(FIXTURES, name), 'utf8'));
const evidenceOf = (r: { evidence: unknown[] }) => r.evidence[0] as { kind: string; file: string; path: string; line?: number; actual?: string; expected?: string };

describe('Kubernetes checks on real manifests', () => {
  it('flags a privileged container with the config path and line of the flag (YAML 1.1 "True")', () => {
    const privileged = scanFixture('kube-score_pod_privileged.yaml').find((r) => r.rule_id === 'iac.k8s.privileged-container');
    expect(privileged?.cwe).toEqual(['CWE-250']);
    expect(privileged?.location).toEqual({ path: 'kube-score_pod_privileged.yaml', start_line: 10 });
    expect(evidenceOf(privileged!)).toEqual({
      kind: 'config_path',
      file: 'kube-score_pod_privileged.yaml',
      path: 'spec.containers[0].securityContext.privileged',
      line: 10,
      actual: 'true',
      expected: 'false',
    });
  });

  it('does not flag a container that runs as a non-zero user and is not privileged', () => {
    const rules = scanFixture('kube-score_pod_security-context-all-good.yaml').map((r) => r.rule_id);
    expect(rules).not.toContain('iac.k8s.privileged-container');
    expect(rules).not.toContain('iac.k8s.run-as-non-root-not-enforced');
    expect(rules).toEqual(['iac.k8s.missing-resource-limits', 'iac.k8s.image-tag-latest']);
  });

  it("fails kube-score's 'Container Image Tag' check: foo/bar:latest is flagged at the image line", () => {
    const results = scanFixture('kube-score_pod_image-tag-latest.yaml');
    const image = results.filter((r) => r.rule_id === 'iac.k8s.image-tag-latest');
    expect(image).toHaveLength(1);
    expect(image[0].location).toEqual({ path: 'kube-score_pod_image-tag-latest.yaml', start_line: 8 });
    expect(evidenceOf(image[0])).toMatchObject({ path: 'spec.containers[0].image', actual: 'foo/bar:latest', line: 8 });
    // kube-score grades the check CRITICAL, its only failing grade; as a severity we keep medium, as Trivy's KSV013 (same check) does.
    expect(image[0].severity).toBe('medium');
  });

  it('reads every document of a multi-document file and ignores non-workload kinds', () => {
    const results = scanFixture('kube-score_pod-and-service_probes-missing.yaml');
    expect(results.every((r) => evidenceOf(r).path.startsWith('spec.containers[0]'))).toBe(true);
    expect(results.map((r) => r.rule_id)).toContain('iac.k8s.image-tag-latest');
  });

  it('finds host namespaces, sensitive hostPath mounts and literal secrets in a DaemonSet', () => {
    const results = scanFixture('kubesec_daemonset_privileged.yml');
    const byRule = (id: string) => results.filter((r) => r.rule_id === id);
    expect(evidenceOf(byRule('iac.k8s.host-network')[0])).toMatchObject({ path: 'spec.template.spec.hostNetwork', line: 21 });
    expect(evidenceOf(byRule('iac.k8s.host-pid')[0])).toMatchObject({ path: 'spec.template.spec.hostPID', line: 22 });
    const hostPaths = byRule('iac.k8s.host-path-volume');
    expect(hostPaths.map((r) => evidenceOf(r).actual)).toEqual(['/var/run/docker.sock', '/dev', '/proc', '/boot', '/lib/modules', '/usr', '/etc/ssl']);
    expect(hostPaths[0].severity).toBe('high');
    expect(hostPaths.find((r) => evidenceOf(r).actual === '/usr')?.severity).toBe('medium');
    // Only ACCESS_KEY has a secret-like name; TAGS, SECURE and the rest are plain settings.
    const secrets = byRule('iac.k8s.secret-in-env');
    expect(secrets).toHaveLength(1);
    expect(evidenceOf(secrets[0])).toMatchObject({ path: 'spec.template.spec.containers[0].env[0].value', line: 39 });
    expect(JSON.stringify(secrets)).not.toContain('SOME VALUE');
    // Limits are set in this manifest.
    expect(byRule('iac.k8s.missing-resource-limits')).toEqual([]);
  });

  it('flags allowPrivilegeEscalation and hostPath in a Deployment template', () => {
    const results = scanFixture('kubesec_deployment_allow-privilege-escalation.yaml');
    const escalation = results.find((r) => r.rule_id === 'iac.k8s.allow-privilege-escalation');
    expect(evidenceOf(escalation!)).toMatchObject({ path: 'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation', line: 33, actual: 'true' });
    expect(results.find((r) => r.rule_id === 'iac.k8s.host-path-volume')?.severity).toBe('medium');
    expect(results.map((r) => r.rule_id)).not.toContain('iac.k8s.image-tag-latest');
  });

  it('treats an image without a tag as latest', () => {
    const image = scanFixture('kubesec_deployment_readonly-rootfs_good.yml').find((r) => r.rule_id === 'iac.k8s.image-tag-latest');
    expect(evidenceOf(image!)).toMatchObject({ path: 'spec.template.spec.containers[0].image', actual: 'mongo', line: 13 });
  });

  it('flags an added SYS_ADMIN capability', () => {
    const cap = scanFixture('kubesec_pod_cap-sys-admin.yml').find((r) => r.rule_id === 'iac.k8s.dangerous-capability');
    expect(evidenceOf(cap!)).toMatchObject({ path: 'spec.containers[0].securityContext.capabilities.add[0]', actual: 'SYS_ADMIN', line: 12 });
  });

  it('covers StatefulSets and DaemonSets without a security context', () => {
    for (const name of ['kubesec_statefulset_no-security.yml', 'kubesec_daemonset_docker-sock.yml']) {
      expect(scanFixture(name).map((r) => r.rule_id)).toContain('iac.k8s.run-as-non-root-not-enforced');
    }
  });
});

describe('Kubernetes checks on crafted manifests', () => {
  const cronJob = `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ops}
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          securityContext:
            runAsUser: 0
          initContainers:
            - name: init
              image: busybox@sha256:${'a'.repeat(64)}
              securityContext: {runAsUser: 1000}
              resources: {limits: {cpu: 100m, memory: 64Mi}}
          containers:
            - name: job
              image: registry.example.com:5000/team/job
              resources: {limits: {cpu: 1}}
              env:
                - {name: DB_PASSWORD, value: hunter2}
                - {name: API_TOKEN, valueFrom: {secretKeyRef: {name: s, key: t}}}
                - {name: SECRET_NAME, value: app-secret}
                - {name: GITHUB_TOKEN, value: "$(TOKEN_FROM_ENV)"}
`;

  it('finds the pod template of a CronJob, inherits the pod securityContext, and reads registry ports correctly', () => {
    const results = scanIacText('k8s/cron.yaml', cronJob);
    const summary = results.map((r) => [r.rule_id, evidenceOf(r).path, evidenceOf(r).line]);
    const T = 'spec.jobTemplate.spec.template.spec';
    expect(summary).toEqual([
      ['iac.k8s.run-as-root', `${T}.securityContext.runAsUser`, 11],
      ['iac.k8s.missing-resource-limits', `${T}.containers[0].resources.limits`, 20],
      ['iac.k8s.image-tag-latest', `${T}.containers[0].image`, 19],
      ['iac.k8s.secret-in-env', `${T}.containers[0].env[0].value`, 22],
    ]);
    expect(JSON.stringify(results)).not.toContain('hunter2');
    expect(evidenceOf(results[1]).actual).toBe('limits.memory not set');
  });

  it('gives the same fingerprint when a document moves, and different ones for different resources', () => {
    const moved = scanIacText('k8s/cron.yaml', `# comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n${cronJob}`);
    expect(moved.map((r) => r.fingerprint)).toEqual(scanIacText('k8s/cron.yaml', cronJob).map((r) => r.fingerprint));
    const renamed = scanIacText('k8s/cron.yaml', cronJob.replace('name: nightly', 'name: weekly'));
    expect(renamed[0].fingerprint).not.toBe(moved[0].fingerprint);
  });

  it('reads a List of objects and skips documents that do not parse', () => {
    const text = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      hostIPC: true
      containers: [{name: c, image: "nginx:1.27", securityContext: {runAsNonRoot: true}, resources: {limits: {cpu: 1, memory: 1Gi}}}]
---
kind: Pod
spec: {containers: [{{ .Values.broken }}]}
`;
    const results = scanIacText('list.yml', text);
    expect(results.map((r) => [r.rule_id, evidenceOf(r).path])).toEqual([['iac.k8s.host-ipc', 'items[0].spec.hostIPC']]);
  });

  it('ignores YAML that is not a Kubernetes object', () => {
    expect(scanIacText('.github/workflows/ci.yml', 'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n')).toEqual([]);
  });
});
