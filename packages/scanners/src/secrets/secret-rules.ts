import type { TSeverity } from '@palisade/contracts';
import { shannonEntropy } from './entropy';

/**
 * A secret rule finds candidate values in a file's text. Each pattern must be global; the secret is
 * the first of the capture `groups` that took part in the match. `accept` rejects look-alikes (examples,
 * placeholders, low-entropy words) so that the report holds credentials, not noise.
 */
export type TSecretRule = {
  id: string;
  name: string;
  title: string;
  severity: TSeverity;
  patterns: RegExp[];
  groups: number[];
  accept?: (secret: string, match: RegExpExecArray) => boolean;
};

const notExample = (secret: string) => !/EXAMPLE/i.test(secret);

/** JWT headers are base64url JSON with an `alg`; checking that keeps random dotted identifiers out. */
function looksLikeJwt(token: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as unknown;
    return typeof header === 'object' && header !== null && 'alg' in header;
  } catch {
    return false;
  }
}

const PLACEHOLDER = /^(?:\$\(|%\(|<|\$[A-Za-z_])|\$\{|\{\{|#\{|changeme|change_me|example|placeholder|your[_-]|dummy|redacted|xxxx|\*\*\*\*|\.\.\.|process\.env|os\.environ|getenv/i;

/** `RefreshToken: 'RefreshToken'`, `passwordHash: 'password_hash'`: generated field maps, not secrets. */
function echoesName(name: string, value: string): boolean {
  const norm = (x: string) => x.toLowerCase().replace(/[^a-z0-9]/g, '');
  const n = norm(name);
  const v = norm(value);
  return v.length > 0 && (n.includes(v) || v.includes(n));
}

/**
 * Generic `password = "..."` style assignments. Quoted values need 8+ characters and 3 bits of
 * entropy per character (real passwords; "changeme" and "password" score lower); unquoted values,
 * which are mostly code, need 16+ characters, a letter, a digit and 3.5 bits.
 */
function acceptGeneric(secret: string, match: RegExpExecArray): boolean {
  if (PLACEHOLDER.test(secret) || /\s/.test(secret) || echoesName(match[1], secret)) return false;
  const quoted = match[4] !== undefined;
  if (quoted) return secret.length >= 8 && shannonEntropy(secret) >= 3;
  return secret.length >= 16 && /[A-Za-z]/.test(secret) && /\d/.test(secret) && shannonEntropy(secret) >= 3.5;
}

// Bounded repetitions: an unbounded name pattern backtracks quadratically on a long run of
// identifier characters, and a checkout is hostile input.
const GENERIC_NAME =
  '[A-Za-z0-9_.-]{0,40}?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key)[A-Za-z0-9_.-]{0,40}';

/** Specific formats come first: when two rules claim the same characters, the earlier one wins. */
export const SECRET_RULES: TSecretRule[] = [
  {
    id: 'secrets.private-key',
    name: 'Private key',
    title: 'Private key committed to the repository',
    severity: 'high',
    patterns: [/-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----((?:(?!-----)[\s\S]){64,}?)-----END \1PRIVATE KEY(?: BLOCK)?-----/g],
    groups: [2],
    accept: (body) => /[A-Za-z0-9+/]{40,}/.test(body.replace(/\\n|\s/g, '')),
  },
  {
    id: 'secrets.aws-access-key-id',
    name: 'AWS access key ID',
    title: 'AWS access key ID',
    severity: 'high',
    patterns: [/\b((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16})\b/g],
    groups: [1],
    accept: notExample,
  },
  {
    id: 'secrets.aws-secret-access-key',
    name: 'AWS secret access key',
    title: 'AWS secret access key',
    severity: 'critical',
    patterns: [/aws[A-Za-z0-9_.-]{0,30}?secret[A-Za-z0-9_.-]{0,30}?["']?[ \t]*(?::=|=>|=|:)[ \t]*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi],
    groups: [1],
    accept: (secret) => notExample(secret) && shannonEntropy(secret) >= 3.5,
  },
  {
    id: 'secrets.github-token',
    name: 'GitHub token',
    title: 'GitHub token',
    severity: 'high',
    patterns: [/\b(gh[pousr]_[A-Za-z0-9]{36,255})\b/g, /\b(github_pat_[A-Za-z0-9_]{50,255})\b/g],
    groups: [1],
  },
  {
    id: 'secrets.gitlab-token',
    name: 'GitLab personal access token',
    title: 'GitLab personal access token',
    severity: 'high',
    patterns: [/\b(glpat-[A-Za-z0-9_-]{20,})/g],
    groups: [1],
  },
  {
    id: 'secrets.slack-token',
    name: 'Slack token',
    title: 'Slack token',
    severity: 'high',
    patterns: [/\b(xox[abpr]-[A-Za-z0-9-]{10,})/g],
    groups: [1],
  },
  {
    id: 'secrets.stripe-live-key',
    name: 'Stripe live secret key',
    title: 'Stripe live secret key',
    severity: 'critical',
    patterns: [/\b((?:sk|rk)_live_[A-Za-z0-9]{16,})/g],
    groups: [1],
  },
  {
    id: 'secrets.google-api-key',
    name: 'Google API key',
    title: 'Google API key',
    severity: 'medium',
    patterns: [/\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/g],
    groups: [1],
  },
  {
    id: 'secrets.jwt',
    name: 'JSON Web Token',
    title: 'JSON Web Token',
    severity: 'medium',
    patterns: [/\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g],
    groups: [1],
    accept: looksLikeJwt,
  },
  {
    id: 'secrets.generic-assignment',
    name: 'Hard-coded credential',
    title: 'Hard-coded credential in an assignment',
    severity: 'medium',
    patterns: [
      new RegExp(
        `(?<![A-Za-z0-9_])(${GENERIC_NAME})(["']?)[ \\t]*(?::=|=>|=|:)[ \\t]*(?:(["'\`])([^"'\`\\r\\n]{1,256}?)\\3|([^\\s"'\`,;()\\[\\]{}<>\\\\]{1,256}))`,
        'gi',
      ),
    ],
    // The quoted value (group 4) or else the bare one (group 5).
    groups: [4, 5],
    accept: acceptGeneric,
  },
];
