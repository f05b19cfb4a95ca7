import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertRef, assertRepositoryUrl, CheckoutError, checkoutRepository } from './checkout';

const GIT_IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_IDENTITY }, encoding: 'utf8' }).trim();

type TFixture = { url: string; first: string; second: string; featureHead: string; root: string };
let fixture: TFixture;

/** main: first → second (tagged v1); feature: branches off first with its own commit. */
beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'palisade-checkout-'));
  const repo = path.join(root, 'origin');
  await mkdir(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  await writeFile(path.join(repo, 'a.txt'), 'one\n');
  sh(repo, 'add', '.');
  sh(repo, 'commit', '-q', '-m', 'first');
  const first = sh(repo, 'rev-parse', 'HEAD');
  await writeFile(path.join(repo, 'a.txt'), 'two\n');
  sh(repo, 'commit', '-q', '-am', 'second');
  const second = sh(repo, 'rev-parse', 'HEAD');
  sh(repo, 'tag', 'v1');
  sh(repo, 'checkout', '-q', '-b', 'feature', first);
  await writeFile(path.join(repo, 'b.txt'), 'feature\n');
  sh(repo, 'add', '.');
  sh(repo, 'commit', '-q', '-m', 'feature');
  const featureHead = sh(repo, 'rev-parse', 'HEAD');
  sh(repo, 'checkout', '-q', 'main');
  fixture = { url: pathToFileURL(repo).href, first, second, featureHead, root };
});

let n = 0;
const target = () => path.join(fixture.root, `co-${++n}`);

describe('checkoutRepository', () => {
  it('clones the default branch shallowly over file:// and reports the commit', async () => {
    const { dir, commit } = await checkoutRepository({ url: fixture.url, allowFileUrls: true, into: target() });
    expect(commit).toBe(fixture.second);
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(sh(dir, 'rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('checks out a branch and a tag', async () => {
    expect((await checkoutRepository({ url: fixture.url, allowFileUrls: true, ref: 'feature', into: target() })).commit).toBe(fixture.featureHead);
    expect((await checkoutRepository({ url: fixture.url, allowFileUrls: true, ref: 'v1', into: target() })).commit).toBe(fixture.second);
  });

  it('checks out a full commit sha that is not a branch head', async () => {
    const { dir, commit } = await checkoutRepository({ url: fixture.url, allowFileUrls: true, ref: fixture.first, into: target() });
    expect(commit).toBe(fixture.first);
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    // Fetched by id, shallow: the file:// transport (protocol v2) allows it, as GitHub does.
    expect(sh(dir, 'rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('falls back to a full fetch for an abbreviated sha', async () => {
    const { commit } = await checkoutRepository({ url: fixture.url, allowFileUrls: true, ref: fixture.first.slice(0, 10), into: target() });
    expect(commit).toBe(fixture.first);
  });

  it('fails with ref_not_found for an unknown ref and leaves no directory behind', async () => {
    const into = target();
    await expect(checkoutRepository({ url: fixture.url, allowFileUrls: true, ref: 'no-such-branch', into })).rejects.toMatchObject({ code: 'ref_not_found' });
    expect(existsSync(into)).toBe(false);
  });

  it('fails with git_failed for a missing repository', async () => {
    const url = pathToFileURL(path.join(fixture.root, 'missing')).href;
    await expect(checkoutRepository({ url, into: target(), allowFileUrls: true })).rejects.toMatchObject({ code: 'git_failed' });
  });

  it('refuses a non-empty target directory', async () => {
    const into = target();
    await mkdir(into);
    await writeFile(path.join(into, 'x'), '');
    await expect(checkoutRepository({ url: fixture.url, allowFileUrls: true, into })).rejects.toMatchObject({ code: 'invalid_target' });
  });

  describe('against a server that never answers', () => {
    let server: net.Server;
    let port: number;
    const closed: Array<Promise<void>> = [];
    beforeAll(async () => {
      server = net.createServer((socket) => {
        socket.on('error', () => undefined);
        // Read (and drop) the request so that the peer's close is seen.
        socket.resume();
        closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      port = (server.address() as net.AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('kills git and its transport helper when the time limit passes', async () => {
      const started = Date.now();
      await expect(checkoutRepository({ url: `http://127.0.0.1:${port}/r.git`, into: target(), timeoutMs: 700 })).rejects.toMatchObject({
        code: 'timed_out',
      });
      expect(Date.now() - started).toBeLessThan(5000);
      // The helper held the connection; it closing proves the whole process group died.
      await Promise.all(closed);
    });

    it('kills git when the caller aborts', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      await expect(checkoutRepository({ url: `http://127.0.0.1:${port}/r.git`, into: target(), signal: controller.signal })).rejects.toMatchObject({
        code: 'aborted',
      });
      await Promise.all(closed);
    });
  });
});

describe('input checks', () => {
  it.each(['https://github.com/o/r.git', 'http://h/r', 'ssh://git@h/r.git', 'git://h/r', 'git@github.com:org/repo.git'])('accepts %s', (url) => {
    expect(() => assertRepositoryUrl(url)).not.toThrow();
  });

  it('accepts a file:// URL only when the deployment allows them', () => {
    for (const url of ['file:///tmp/r', 'FILE:///tmp/r', 'file://localhost/tmp/r']) {
      expect(() => assertRepositoryUrl(url)).toThrow(/file:\/\/ repositories are not enabled/);
      expect(() => assertRepositoryUrl(url, { allowFileUrls: true })).not.toThrow();
    }
  });

  it('refuses to clone a file:// repository unless allowed, before git runs', async () => {
    const into = target();
    await expect(checkoutRepository({ url: fixture.url, into })).rejects.toMatchObject({ code: 'invalid_url' });
    expect(existsSync(into)).toBe(false);
  });

  it.each(['ext::sh -c touch% /tmp/pwned', '--upload-pack=touch /tmp/x', '/tmp/repo', 'ftp://h/r', 'fd::17', 'https://h/r\nx', '', 'javascript://x'])(
    'rejects %j',
    (url) => {
      expect(() => assertRepositoryUrl(url)).toThrow(CheckoutError);
    },
  );

  it('rejects refs that could be read as options or escape ref syntax', () => {
    for (const ref of ['--upload-pack=x', '-b', 'a..b', 'a b', 'refs/heads/', 'x.lock', '']) expect(() => assertRef(ref)).toThrow(CheckoutError);
    for (const ref of ['main', 'feature/x-1', 'v1.2.3', 'refs/pull/7/head', 'a'.repeat(40)]) expect(() => assertRef(ref)).not.toThrow();
  });

  it('rejects a bad URL before running git', async () => {
    await expect(checkoutRepository({ url: 'ext::sh -c id', into: target() })).rejects.toMatchObject({ code: 'invalid_url' });
  });
});
