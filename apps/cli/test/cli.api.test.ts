import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TDb } from '@palisade/db';
import { addMember, createOrganization, createUser, startTestStack, type TStack, type TTestStack } from '@palisade/testing';
import { runCli, startCli, stopAllClis, type TCliResult } from './support/cli-process';

const REPO_URL = 'https://github.com/acme/api.git';
const USER_CODE = /code: ([A-Z]{4}-[A-Z]{4})/;

/** A SARIF 2.1.0 log with one error-level result per path (each becomes a `high` finding). */
function sarif(paths: string[]): string {
  const results = paths.map((file, index) => ({
    ruleId: 'js/eval',
    level: 'error',
    message: { text: `eval of user input in ${file}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: file }, region: { startLine: 10 + index } } }],
  }));
  return JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'ExtScanner', rules: [] } }, results }] });
}

/** A POST as a test client (not the CLI): JSON unless the body is already a string with its own Content-Type. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: any }> {
  const raw = typeof body === 'string';
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...(raw ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: raw ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, data: text ? JSON.parse(text) : undefined };
}

/** Fails with everything the CLI printed, which says far more than two exit codes. */
function expectExit(result: TCliResult, code: number): void {
  if (result.code !== code)
    throw new Error(`expected exit code ${code}, got ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
}

// The CLI as a user runs it: a child process talking to the five planes' edge (real nginx,
// PostgreSQL and Redis), with its config in a temp file.
describe('the palisade CLI against the running service', () => {
  let stack: TStack;
  let env: TTestStack | undefined;
  let db: TDb;
  let dir: string;
  let orgId: string;
  let human: { email: string; password: string; token: string };
  /** A config signed in as `human` in `orgId`, for the commands that need one. */
  let signedIn: string;
  const cli = (args: string[], configPath = signedIn) => runCli(args, { configPath, baseUrl: stack.baseUrl });
  const newConfigPath = (name: string) => path.join(dir, `${name}.json`);
  const readConfig = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const decide = (userCode: string, decision: 'approve' | 'deny') =>
    post(`${stack.baseUrl}/api/v2/auth/device/approve`, { user_code: userCode, decision }, { Authorization: `Bearer ${human.token}` });
  const tenant = () => ({ Authorization: `Bearer ${human.token}`, 'X-Organization-ID': orgId });

  /** A scan of one external tool whose report (with these file paths) has been ingested. */
  async function scanWithFindings(paths: string[]): Promise<string> {
    const created = await post(
      `${stack.baseUrl}/api/v2/scans`,
      { target: { kind: 'repository', url: REPO_URL }, tools: ['ext-scanner'] },
      tenant(),
    );
    expect(created.status).toBe(201);
    const { url, token } = created.data.tools[0].callback;
    const report = await post(url, sarif(paths), { Authorization: `Bearer ${token}`, 'Content-Type': 'application/sarif+json' });
    expect(report.status).toBe(200);
    return created.data.scan_id;
  }

  beforeAll(async () => {
    // Only the planes the CLI reaches; a 1-second device poll interval keeps sign-ins quick.
    env = await startTestStack({ planes: ['read', 'write', 'callback'], env: { DEVICE_POLL_INTERVAL_SECONDS: '1' } });
    ({ stack, db } = env);
    const org = await createOrganization(db);
    const user = await createUser(db, { password: 'cli-test-password' });
    await addMember(db, org.id, user.id, 'owner');
    orgId = org.id;
    const login = await post(`${stack.baseUrl}/api/v2/auth/login`, { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    human = { email: user.email, password: user.password, token: login.data.access_token };
    dir = mkdtempSync(path.join(tmpdir(), 'palisade-cli-'));
    signedIn = newConfigPath('signed-in');
    writeFileSync(signedIn, JSON.stringify({ base_url: stack.baseUrl, access_token: human.token, organization_id: orgId }));
  }, 120_000);

  afterAll(async () => {
    stopAllClis();
    await env?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('login --device', () => {
    it('shows the verification page and user code, and saves the token and organization once a person approves', async () => {
      const configPath = newConfigPath('device-approved');
      const run = startCli(['login', '--device', '--org', orgId], { configPath, baseUrl: stack.baseUrl });
      const [, userCode] = await run.waitFor('stderr', USER_CODE);
      expect((await decide(userCode, 'approve')).status).toBe(200);

      const result = await run.exited;
      expectExit(result, 0);
      expect(result.stderr).toContain(`${stack.baseUrl}/api/v2/auth/device?user_code=${userCode}`);
      expect(result.stderr).toMatch(/Waiting for approval\.* approved/);
      expect(result.stdout).toContain(`signed in as ${human.email}`);
      const saved = readConfig(configPath);
      expect(saved).toMatchObject({ base_url: stack.baseUrl, access_token: expect.any(String), organization_id: orgId });

      // The saved token is the approving person's.
      const whoami = await cli(['whoami'], configPath);
      expectExit(whoami, 0);
      expect(JSON.parse(whoami.stdout).principal).toMatchObject({ kind: 'human', email: human.email });
    });

    it('exits 1 with access_denied, saving nothing, when the person denies', async () => {
      const configPath = newConfigPath('device-denied');
      const run = startCli(['login', '--device'], { configPath, baseUrl: stack.baseUrl });
      const [, userCode] = await run.waitFor('stderr', USER_CODE);
      expect((await decide(userCode, 'deny')).status).toBe(200);

      const result = await run.exited;
      expectExit(result, 1);
      expect(result.stderr).toMatch(/^access_denied: .*denied/m);
      expect(existsSync(configPath)).toBe(false);
    });
  });

  it('still signs in with email and password, choosing the only organization', async () => {
    const configPath = newConfigPath('password');
    const result = await runCli(['login', '--email', human.email], {
      configPath,
      baseUrl: stack.baseUrl,
      PALISADE_PASSWORD: human.password,
    });
    expectExit(result, 0);
    expect(readConfig(configPath)).toMatchObject({ access_token: expect.any(String), organization_id: orgId });
  });

  describe('scan', () => {
    it('creates a scan of a repository with an external tool and prints it as JSON, callback credential included', async () => {
      const result = await cli(['scan', REPO_URL, '--ref', 'main', '--tool', 'ext-scanner']);
      expectExit(result, 0);
      const scan = JSON.parse(result.stdout);
      expect(scan).toMatchObject({ status: 'queued', plan: 'explicit', target: { kind: 'repository', url: REPO_URL, ref: 'main' } });
      expect(scan.tools).toEqual([
        expect.objectContaining({
          tool: 'ext-scanner',
          status: 'pending',
          callback: expect.objectContaining({ token: expect.any(String) }),
        }),
      ]);
    });

    it('with --wait shows progress until the tool reports, then prints a summary and exits 0', async () => {
      const run = startCli(['scan', REPO_URL, '--tool', 'ext-scanner', '--wait', '--poll-interval', '0.3'], {
        configPath: signedIn,
        baseUrl: stack.baseUrl,
      });
      const [, url, token] = await run.waitFor('stderr', /post its report to (\S+) with "Authorization: Bearer (\S+)"/);
      await run.waitFor('stderr', /ext-scanner pending/);
      const report = await post(url, sarif(['src/a.js', 'src/b.js']), {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/sarif+json',
      });
      expect(report.status).toBe(200);

      const result = await run.exited;
      expectExit(result, 0);
      expect(result.stdout).toMatch(/^scan [0-9a-f-]{36}: succeeded, 2 findings$/m);
      expect(result.stdout).toMatch(/^ {2}ext-scanner +succeeded +2$/m);
    });

    it('with --wait gives up after --timeout, prints the last state and exits 2', async () => {
      const result = await cli(['scan', REPO_URL, '--tool', 'ext-scanner', '--wait', '--timeout', '1', '--poll-interval', '0.4', '--json']);
      expectExit(result, 2);
      expect(JSON.parse(result.stdout)).toMatchObject({
        status: 'queued',
        tools: [expect.objectContaining({ tool: 'ext-scanner', status: 'pending' })],
      });
    });

    it('prints an API refusal as code, message, hint and correlation id, without a stack, and exits 1', async () => {
      const result = await cli(['scan', 'not-a-url', '--tool', 'ext-scanner']);
      expectExit(result, 1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^validation_failed: .*body\.target\.url.* \(.+\) \[[0-9a-f-]{16,}\]\n$/);
    });
  });

  describe('findings', () => {
    it('lists findings as JSON, following every cursor with --all', async () => {
      const scanId = await scanWithFindings(['src/one.js', 'src/two.js', 'src/three.js']);
      const result = await cli(['findings', '--scan', scanId, '--limit', '1', '--all', '--json']);
      expectExit(result, 0);
      const items = JSON.parse(result.stdout) as { title: string; severity: string; location: { path: string } }[];
      expect(items.map((item) => item.location.path).sort()).toEqual(['src/one.js', 'src/three.js', 'src/two.js']);

      const firstPage = await cli(['findings', '--scan', scanId, '--limit', '1', '--json']);
      expect(JSON.parse(firstPage.stdout)).toHaveLength(1);
      expect(firstPage.stderr).toContain('--all');
    });

    it('prints an aligned table of severity, status, title, location and id', async () => {
      const scanId = await scanWithFindings(['src/table.js']);
      const result = await cli(['findings', '--scan', scanId, '--severity', 'high,critical', '--status', 'open']);
      expectExit(result, 0);
      const [header, row, ...rest] = result.stdout.trimEnd().split('\n');
      expect(rest).toEqual([]);
      expect(header).toMatch(/^SEVERITY +STATUS +TITLE +LOCATION +ID$/);
      expect(row).toMatch(/^high +open +eval of user input in src\/table\.js +src\/table\.js:10 +[0-9a-f-]{36}$/);
      expect(row.indexOf('open')).toBe(header.indexOf('STATUS'));
      expect(row.indexOf('src/table.js:10')).toBe(header.indexOf('LOCATION'));
    });

    it('lists zero findings as an empty JSON array', async () => {
      const result = await cli(['findings', '--severity', 'critical', '--json']);
      expectExit(result, 0);
      expect(JSON.parse(result.stdout)).toEqual([]);
    });
  });
});
