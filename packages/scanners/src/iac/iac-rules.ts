import type { TSeverity } from '@palisade/contracts';

export type TIacRule = { id: string; name: string; title: string; severity: TSeverity; cwe?: string[] };

function rule(id: string, severity: TSeverity, title: string, cwe?: string): TIacRule {
  return { id, name: title, title, severity, ...(cwe ? { cwe: [cwe] } : {}) };
}

/** Stable rule ids: findings are keyed by them, so an id is never renamed, only retired. */
export const IAC_RULES = {
  k8sPrivileged: rule('iac.k8s.privileged-container', 'high', 'Container runs privileged', 'CWE-250'),
  k8sPrivilegeEscalation: rule('iac.k8s.allow-privilege-escalation', 'medium', 'Container allows privilege escalation', 'CWE-269'),
  k8sDangerousCapability: rule('iac.k8s.dangerous-capability', 'high', 'Container adds a dangerous Linux capability', 'CWE-250'),
  k8sRunAsRoot: rule('iac.k8s.run-as-root', 'high', 'Container runs as root (runAsUser 0)', 'CWE-250'),
  k8sRunAsNonRootNotEnforced: rule('iac.k8s.run-as-non-root-not-enforced', 'medium', 'Container may run as root (runAsNonRoot not set to true)', 'CWE-250'),
  k8sHostPath: rule('iac.k8s.host-path-volume', 'medium', 'Pod mounts a hostPath volume', 'CWE-668'),
  k8sHostNetwork: rule('iac.k8s.host-network', 'high', "Pod shares the host's network namespace", 'CWE-653'),
  k8sHostPid: rule('iac.k8s.host-pid', 'high', "Pod shares the host's process namespace", 'CWE-653'),
  k8sHostIpc: rule('iac.k8s.host-ipc', 'medium', "Pod shares the host's IPC namespace", 'CWE-653'),
  k8sResourceLimits: rule('iac.k8s.missing-resource-limits', 'low', 'Container has no CPU or memory limit', 'CWE-770'),
  k8sImageTag: rule('iac.k8s.image-tag-latest', 'medium', 'Container image uses the latest tag or no tag'),
  k8sSecretInEnv: rule('iac.k8s.secret-in-env', 'high', 'Secret passed as a literal environment value', 'CWE-798'),
  dockerRoot: rule('iac.dockerfile.runs-as-root', 'medium', 'Image runs as root (no USER, or USER root)', 'CWE-250'),
  dockerImageTag: rule('iac.dockerfile.image-tag-latest', 'medium', 'Base image uses the latest tag or no tag'),
  dockerSecretInEnv: rule('iac.dockerfile.secret-in-env', 'high', 'Secret set with ENV in a Dockerfile', 'CWE-798'),
  dockerSecretInArg: rule('iac.dockerfile.secret-in-arg', 'high', 'Secret given as an ARG default in a Dockerfile', 'CWE-798'),
  dockerAddUrl: rule('iac.dockerfile.add-from-url', 'medium', 'ADD fetches a remote URL without a checksum', 'CWE-494'),
  composePrivileged: rule('iac.compose.privileged', 'high', 'Compose service runs privileged', 'CWE-250'),
  composeImageTag: rule('iac.compose.image-tag-latest', 'medium', 'Compose service image uses the latest tag or no tag'),
  composeSecretInEnv: rule('iac.compose.secret-in-environment', 'high', 'Secret set as a literal in a compose environment', 'CWE-798'),
  composeHostNetwork: rule('iac.compose.host-network', 'medium', "Compose service uses the host's network", 'CWE-653'),
  composeHostPid: rule('iac.compose.host-pid', 'high', "Compose service shares the host's process namespace", 'CWE-653'),
} as const satisfies Record<string, TIacRule>;

const SECRET_WORDS = new Set(['PASSWORD', 'PASSWD', 'PWD', 'PASS', 'SECRET', 'SECRETS', 'TOKEN', 'KEY', 'APIKEY', 'CREDENTIAL', 'CREDENTIALS']);
/** A name ending in one of these points at a secret (a file, a secret's name) rather than holding one. */
const REFERENCE_WORDS = new Set(['FILE', 'PATH', 'NAME', 'REF', 'ID', 'URL', 'DIR', 'LENGTH', 'SIZE', 'TTL', 'TYPE']);

/** DB_PASSWORD, apiKey, GITHUB_TOKEN, ACCESS_KEY: yes; SECRET_NAME, TOKEN_FILE, MONKEY: no. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  if (words.length === 0 || REFERENCE_WORDS.has(words[words.length - 1])) return false;
  return words.some((w) => SECRET_WORDS.has(w) || /(PASSWORD|SECRET|TOKEN|APIKEY)$/.test(w));
}

/** A value that is a reference to something else (`$VAR`, `${VAR}`, `$(VAR)`, a template), not the secret itself. */
export function isLiteralValue(value: unknown): boolean {
  if (typeof value === 'number') return true;
  if (typeof value !== 'string') return false;
  const v = value.trim();
  return v.length > 0 && !/^\$|\$\{|\$\(|\{\{/.test(v);
}

/** `latest` for an explicit :latest, `untagged` for no tag, null when pinned by tag or digest or not resolvable. */
export function imageTagProblem(image: string): 'latest' | 'untagged' | null {
  const ref = image.trim();
  if (ref === '' || ref.includes('@') || /\$|\{\{/.test(ref)) return null;
  const lastPart = ref.slice(ref.lastIndexOf('/') + 1);
  const colon = lastPart.indexOf(':');
  if (colon === -1) return 'untagged';
  return lastPart.slice(colon + 1) === 'latest' ? 'latest' : null;
}
