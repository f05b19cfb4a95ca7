import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ZPalisadeReport } from '@palisade/contracts';
import { makeReport } from '../report';
import { scanDirectoryForSecrets, scanTextForSecrets } from './secrets-scanner';
import { shannonEntropy } from './entropy';
import { redactSecret } from './redact';

// Fake credentials are assembled at run time so that this file itself never trips a secret scanner.
const FAKE = {
  github: `ghp_${'Ab3dEf9hIj'.repeat(3)}KlMnOp`,
  githubPat: `github_pat_${'11ABCDEFG0'.repeat(2)}ab_${'Xy7Zq9Rt2W'.repeat(6)}`,
  gitlab: `glpat-${'x7Yq2Lm9Pz'}${'Rt4Wk8'}${'Ab3D'}`,
  slack: `xoxb-${'123456789012'}-${'1234567890123'}-${'AbCdEfGhIjKlMnOpQrStUvWx'}`,
  stripe: `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
  google: `AIza${'SyD-9tSrke72PouQMnMX'}${'-a7eZSW0jkFMBWY'}`,
  awsId: `AKIA${'Z7QW'}${'ERTY'}${'UIOP'}${'ASDF'}`,
  awsSecret: `${'Zq8hT3kP9wX2'}${'mV7nB4cR6tY1'}${'uJ5iK0oL3pA8'}${'sD2f'}`,
  jwt: [
    Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
    Buffer.from('{"sub":"1234567890","name":"Jo"}').toString('base64url'),
    'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  ].join('.'),
  password: `Tr0ub4dor&${'3xQ9'}`,
  pemBody: `MIIEowIBAAKCAQEA${'q9Xv2Lm8Rt4Wk7Yp3Zn6Bc1Df5Gh0Jk'.repeat(4)}`,
};

describe('scanTextForSecrets', () => {
  it.each([
    ['secrets.github-token', `const token = process.env.X ?? '${FAKE.github}';`],
    ['secrets.github-token', `GH=${FAKE.githubPat}`],
    ['secrets.gitlab-token', `url: https://oauth2:${FAKE.gitlab}@gitlab.com/x.git`],
    ['secrets.slack-token', `hook("${FAKE.slack}")`],
    ['secrets.stripe-live-key', `Stripe.api_key = "${FAKE.stripe}"`],
    ['secrets.google-api-key', `<script src="https://maps.googleapis.com/maps/api/js?key=${FAKE.google}"></script>`],
    ['secrets.aws-access-key-id', `aws_access_key_id = ${FAKE.awsId}`],
    ['secrets.aws-secret-access-key', `aws_secret_access_key = ${FAKE.awsSecret}`],
    ['secrets.jwt', `Authorization: Bearer ${FAKE.jwt}`],
    ['secrets.generic-assignment', `db_password = "${FAKE.password}"`],
  ])('finds %s', (ruleId, line) => {
    const results = scanTextForSecrets('src/app.ts', `// header\n${line}\n`);
    expect(results.map((r) => r.rule_id)).toEqual([ruleId]);
    expect(results[0].location?.start_line).toBe(2);
    expect(results[0].cwe).toEqual(['CWE-798']);
  });

  it('points at the exact columns of the secret and redacts it to its first four characters', () => {
    const line = `  const t = "${FAKE.github}";`;
    const [result] = scanTextForSecrets('a.js', line);
    const col = line.indexOf(FAKE.github) + 1;
    expect(result.location).toEqual({ path: 'a.js', start_line: 1, start_column: col, end_line: 1, end_column: col + FAKE.github.length });
    expect(result.evidence[0]).toEqual({ kind: 'code_span', region: result.location, snippet: '  const t = "ghp_****";' });
  });

  it('finds a PEM private key block spanning lines and shows only its header', () => {
    const text = `key: |\n  -----BEGIN RSA PRIVATE KEY-----\n  ${FAKE.pemBody}\n  ${FAKE.pemBody}\n  -----END RSA PRIVATE KEY-----\n`;
    const [result] = scanTextForSecrets('k.yaml', text);
    expect(result.rule_id).toBe('secrets.private-key');
    expect(result.location?.start_line).toBe(2);
    expect(result.location?.end_line).toBe(5);
    expect(JSON.stringify(result)).not.toContain(FAKE.pemBody);
    expect((result.evidence[0] as { snippet: string }).snippet).toContain('-----BEGIN RSA PRIVATE KEY-----');
  });

  it('redacts every secret on a line, not only the one the result is about', () => {
    const results = scanTextForSecrets('x.env', `A=${FAKE.github} B=${FAKE.stripe}`);
    expect(results).toHaveLength(2);
    for (const r of results) expect(JSON.stringify(r)).not.toMatch(/Ab3dEf9hIj|4eC39HqLyj/);
  });

  it('ignores placeholders, low-entropy words, documentation examples, env lookups, interpolations and field-name maps', () => {
    const text = [
      'password = "changeme"',
      'password = "${DB_PASSWORD}"',
      'token: "{{ .Values.token }}"',
      'secret = "aaaaaaaaaaaa"',
      'api_key = os.environ["API_KEY"]',
      'password: string;',
      `aws_access_key_id = AKIA${'IOSFODNN7EXAMPLE'}`,
      'const tokenizer = new Tokenizer(options);',
      'secretName: my-app-secret',
      "RefreshToken: 'RefreshToken',",
      "passwordHash: 'password_hash',",
      'tokenHash: `h-${randomUUID()}-abc`,',
    ].join('\n');
    expect(scanTextForSecrets('c.txt', text)).toEqual([]);
  });

  it('does not report a token twice when a generic assignment holds it', () => {
    const results = scanTextForSecrets('c.py', `GITHUB_TOKEN = "${FAKE.github}"`);
    expect(results.map((r) => r.rule_id)).toEqual(['secrets.github-token']);
  });

  it('keeps fingerprints stable when lines move and distinct for repeated secrets', () => {
    const a = scanTextForSecrets('f.ts', `x = '${FAKE.github}'`);
    const b = scanTextForSecrets('f.ts', `\n\n// moved\nx = '${FAKE.github}'\ny = '${FAKE.github}'`);
    expect(b[0].fingerprint).toBe(a[0].fingerprint);
    expect(b[1].fingerprint).not.toBe(b[0].fingerprint);
    expect(scanTextForSecrets('g.ts', `x = '${FAKE.github}'`)[0].fingerprint).not.toBe(a[0].fingerprint);
  });

  it('stays fast on a long hostile line', () => {
    const started = Date.now();
    scanTextForSecrets('big.txt', `${'token-'.repeat(150_000)}=`);
    scanTextForSecrets('big2.txt', 'a'.repeat(1_000_000));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('redaction and entropy', () => {
  it('keeps at most four characters and fewer for short values', () => {
    expect(redactSecret(FAKE.github)).toBe('ghp_****');
    expect(redactSecret('abcdefgh')).toBe('ab****');
    expect(redactSecret('abc')).toBe('****');
  });

  it('scores random strings above words', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy(FAKE.awsSecret)).toBeGreaterThan(4);
    expect(shannonEntropy('password')).toBeLessThan(3);
  });
});

describe('scanDirectoryForSecrets', () => {
  it('skips .git, node_modules, lock files, binaries and big files, and never leaks a secret into the report', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-secrets-'));
    const line = `token = "${FAKE.github}"\n`;
    await mkdir(path.join(dir, 'src/deep'), { recursive: true });
    await mkdir(path.join(dir, 'node_modules/pkg'), { recursive: true });
    await mkdir(path.join(dir, '.git'), { recursive: true });
    await writeFile(path.join(dir, 'src/deep/config.js'), `// c\n${line}`);
    await writeFile(path.join(dir, '.env'), `STRIPE=${FAKE.stripe}\nDB_PASSWORD=${FAKE.password}xyz12\n`);
    await writeFile(path.join(dir, 'node_modules/pkg/index.js'), line);
    await writeFile(path.join(dir, '.git/config'), line);
    await writeFile(path.join(dir, 'package-lock.json'), line);
    await writeFile(path.join(dir, 'image.bin'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(line)]));
    await writeFile(path.join(dir, 'huge.txt'), line + 'x'.repeat(1024 * 1024));

    const results = await scanDirectoryForSecrets(dir);
    expect(results.map((r) => [r.location?.path, r.rule_id])).toEqual([
      ['.env', 'secrets.stripe-live-key'],
      ['.env', 'secrets.generic-assignment'],
      ['src/deep/config.js', 'secrets.github-token'],
    ]);
    const json = JSON.stringify(ZPalisadeReport.parse(makeReport('secrets', results)));
    for (const secret of [FAKE.github, FAKE.stripe, FAKE.password]) expect(json).not.toContain(secret);
  });
});
