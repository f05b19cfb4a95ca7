import type { TPalisadeResult } from '@palisade/contracts';
import { iacResult, type TIacHit, type TPathSegment } from './iac-result';
import { IAC_RULES, imageTagProblem, isLiteralValue, isSecretName } from './iac-rules';
import { asArray, asRecord, type TYamlDoc } from './yaml-docs';

/** Where each workload kind keeps its pod spec. */
const POD_SPEC_PATH: Record<string, string[]> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

export const KUBERNETES_WORKLOAD_KINDS = Object.keys(POD_SPEC_PATH);

/** Host paths whose mount amounts to control of the node. */
const SENSITIVE_HOST_PATHS = /^\/(?:$|etc|proc|sys|dev|root|boot|var\/run|run|var\/lib\/kubelet|var\/lib\/docker|var\/lib\/containerd)(?:\/|$)/;

/** Capabilities that amount to root on the node or its network (the ones kubesec and the Pod Security Standards call out). */
const DANGEROUS_CAPABILITIES = new Set(['ALL', 'SYS_ADMIN', 'NET_ADMIN', 'SYS_MODULE', 'SYS_PTRACE', 'SYS_RAWIO', 'DAC_READ_SEARCH', 'BPF', 'PERFMON', 'SYS_BOOT']);

function getIn(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => asRecord(v)?.[key], value);
}

export function isKubernetesObject(value: unknown): boolean {
  const obj = asRecord(value);
  return typeof obj?.apiVersion === 'string' && typeof obj.kind === 'string';
}

/** Findings for one YAML document that is a Kubernetes object (or a `List` of them); others yield nothing. */
export function checkKubernetesDocument(file: string, doc: TYamlDoc): TPalisadeResult[] {
  const hits: TIacHit[] = [];
  const root = asRecord(doc.value);
  if (!root || !isKubernetesObject(root)) return [];
  if (root.kind === 'List') {
    asArray(root.items).forEach((item, i) => checkObject(file, doc, item, ['items', i], `#${doc.index}/${i}`, hits));
  } else {
    checkObject(file, doc, root, [], `#${doc.index}`, hits);
  }
  return hits.map(iacResult);
}

function checkObject(file: string, doc: TYamlDoc, value: unknown, prefix: TPathSegment[], fallbackId: string, hits: TIacHit[]): void {
  const obj = asRecord(value);
  const kind = typeof obj?.kind === 'string' ? obj.kind : '';
  const specPath = POD_SPEC_PATH[kind];
  const podSpec = asRecord(getIn(obj, specPath ?? []));
  if (!obj || !specPath || !podSpec) return;
  const meta = asRecord(obj.metadata);
  const name = typeof meta?.name === 'string' ? meta.name : undefined;
  const namespace = typeof meta?.namespace === 'string' ? meta.namespace : '';
  const identity = `${kind}/${namespace}/${name ?? fallbackId}`;
  const label = `${kind} ${name ?? '(unnamed)'}`;
  const P: TPathSegment[] = [...prefix, ...specPath];
  const hit = (h: Omit<TIacHit, 'file' | 'identity' | 'line'>) => hits.push({ ...h, file, identity, line: doc.lineOf(h.path) });

  for (const [field, rule] of [['hostNetwork', IAC_RULES.k8sHostNetwork], ['hostPID', IAC_RULES.k8sHostPid], ['hostIPC', IAC_RULES.k8sHostIpc]] as const) {
    if (podSpec[field] === true) {
      hit({ rule, path: [...P, field], actual: 'true', expected: 'false or unset', message: `${label} sets ${field}: true.` });
    }
  }

  asArray(podSpec.volumes).forEach((volume, i) => {
    const hostPath = asRecord(asRecord(volume)?.hostPath);
    if (!hostPath) return;
    const mounted = typeof hostPath.path === 'string' ? hostPath.path : '';
    hit({
      rule: IAC_RULES.k8sHostPath,
      severity: SENSITIVE_HOST_PATHS.test(mounted) ? 'high' : undefined,
      path: [...P, 'volumes', i, 'hostPath'],
      actual: mounted || 'hostPath',
      expected: 'no hostPath volume (emptyDir, a PersistentVolumeClaim or a CSI volume)',
      message: `${label} mounts the host path ${mounted || '(unspecified)'}.`,
    });
  });

  const podSecurity = asRecord(podSpec.securityContext) ?? {};
  for (const group of ['initContainers', 'containers'] as const) {
    asArray(podSpec[group]).forEach((raw, i) => {
      const container = asRecord(raw);
      if (!container) return;
      const C: TPathSegment[] = [...P, group, i];
      const where = `${label}, container ${typeof container.name === 'string' ? container.name : `#${i}`}`;
      checkContainer(container, podSecurity, C, P, where, hit);
    });
  }
}

function checkContainer(
  container: Record<string, unknown>,
  podSecurity: Record<string, unknown>,
  C: TPathSegment[],
  P: TPathSegment[],
  where: string,
  hit: (h: Omit<TIacHit, 'file' | 'identity' | 'line'>) => void,
): void {
  const security = asRecord(container.securityContext) ?? {};
  if (security.privileged === true) {
    hit({ rule: IAC_RULES.k8sPrivileged, path: [...C, 'securityContext', 'privileged'], actual: 'true', expected: 'false', message: `${where} runs privileged.` });
  }
  if (security.allowPrivilegeEscalation === true) {
    hit({
      rule: IAC_RULES.k8sPrivilegeEscalation,
      path: [...C, 'securityContext', 'allowPrivilegeEscalation'],
      actual: 'true',
      expected: 'false',
      message: `${where} sets allowPrivilegeEscalation: true.`,
    });
  }

  asArray(asRecord(security.capabilities)?.add).forEach((cap, k) => {
    const name = typeof cap === 'string' ? cap.toUpperCase().replace(/^CAP_/, '') : '';
    if (!DANGEROUS_CAPABILITIES.has(name)) return;
    hit({
      rule: IAC_RULES.k8sDangerousCapability,
      path: [...C, 'securityContext', 'capabilities', 'add', k],
      actual: name,
      expected: 'drop ALL and add only what the process needs',
      message: `${where} adds the ${name} capability.`,
    });
  });

  // The container's securityContext overrides the pod's, field by field.
  const userOwner = security.runAsUser !== undefined ? [...C, 'securityContext'] : [...P, 'securityContext'];
  const runAsUser = security.runAsUser ?? podSecurity.runAsUser;
  const runAsNonRoot = security.runAsNonRoot ?? podSecurity.runAsNonRoot;
  if (runAsUser === 0) {
    hit({ rule: IAC_RULES.k8sRunAsRoot, path: [...userOwner, 'runAsUser'], actual: '0', expected: 'a non-zero user id', message: `${where} runs as user 0.` });
  } else if (runAsUser === undefined && runAsNonRoot !== true) {
    const nonRootOwner = security.runAsNonRoot !== undefined || podSecurity.runAsNonRoot === undefined ? C : P;
    hit({
      rule: IAC_RULES.k8sRunAsNonRootNotEnforced,
      path: [...nonRootOwner, 'securityContext', 'runAsNonRoot'],
      actual: runAsNonRoot === undefined ? 'unset' : String(runAsNonRoot),
      expected: 'true (or a non-zero runAsUser)',
      message: `${where} does not set runAsNonRoot: true or a non-zero runAsUser, so it runs as root when the image does.`,
    });
  }

  const limits = asRecord(asRecord(container.resources)?.limits) ?? {};
  const missing = ['cpu', 'memory'].filter((k) => limits[k] === undefined || limits[k] === null || limits[k] === '');
  if (missing.length > 0) {
    hit({
      rule: IAC_RULES.k8sResourceLimits,
      path: [...C, 'resources', 'limits'],
      actual: `${missing.map((k) => `limits.${k}`).join(' and ')} not set`,
      expected: 'limits.cpu and limits.memory set',
      message: `${where} has no ${missing.join(' or ')} limit.`,
    });
  }

  if (typeof container.image === 'string') {
    const problem = imageTagProblem(container.image);
    if (problem) {
      hit({
        rule: IAC_RULES.k8sImageTag,
        path: [...C, 'image'],
        actual: container.image,
        expected: 'an explicit version tag or a digest',
        message: `${where} uses image ${container.image} (${problem === 'latest' ? 'the latest tag' : 'no tag, which means latest'}).`,
      });
    }
  }

  asArray(container.env).forEach((raw, j) => {
    const env = asRecord(raw);
    if (!env || typeof env.name !== 'string' || !isSecretName(env.name) || env.valueFrom !== undefined) return;
    if (!isLiteralValue(env.value)) return;
    hit({
      rule: IAC_RULES.k8sSecretInEnv,
      path: [...C, 'env', j, 'value'],
      // Never the value itself: reports must not carry secrets.
      actual: `literal value for ${env.name} (redacted)`,
      expected: 'valueFrom.secretKeyRef',
      message: `${where} sets ${env.name} from a literal value; reference a Secret instead.`,
    });
  });
}
