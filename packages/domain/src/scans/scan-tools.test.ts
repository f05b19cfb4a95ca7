import { callbackTokenMatches, hashCallbackToken, issueCallbackToken } from './callback-token';
import { scanStartJobs } from './scan-jobs';
import { resolveScanPlan } from './scan-plan';
import { builtinToolSkipReason, fanoutScanId, normalizeRepositoryUrl, scanEntity } from './scan-tools';

describe('scan helpers', () => {
  it('derives the same fan-out scan id for the same request and index, a UUIDv7 in target order', () => {
    const request = '01936f4e-8a1b-7c2d-8e3f-123456789abc';
    const first = fanoutScanId(request, 0);
    expect(fanoutScanId(request, 0)).toBe(first);
    expect(first).toMatch(/^01936f4e-8a1b-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ids = [0, 1, 2, 10, 999].map((i) => fanoutScanId(request, i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(fanoutScanId('01936f4e-8a1b-7c2d-8e3f-123456789abd', 0)).not.toBe(first);
  });

  it('issues credentials whose sha256 is what is stored, and compares them in constant time', () => {
    const { token, hash } = issueCallbackToken();
    expect(token).toMatch(/^pscb_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(hashCallbackToken(token));
    expect(callbackTokenMatches(token, hash)).toBe(true);
    expect(callbackTokenMatches(`${token}x`, hash)).toBe(false);
    expect(callbackTokenMatches(token, null)).toBe(false);
  });

  it('names a repository entity without credentials or .git', () => {
    expect(normalizeRepositoryUrl('https://user:secret@GitHub.com/acme/api.git/')).toBe('https://github.com/acme/api');
    expect(scanEntity({ kind: 'repository', url: 'https://github.com/acme/api.git' })).toEqual({
      type: 'repository',
      id: 'https://github.com/acme/api',
      name: 'acme/api',
    });
  });

  it('defers the automatic plan of a repository to the checkout, and resolves others at once', () => {
    expect(resolveScanPlan({ kind: 'repository', url: 'file:///tmp/x' }, undefined)).toEqual({ plan: 'automatic', tools: [], reason: null, deferred: true });
    expect(resolveScanPlan({ kind: 'repository', url: 'file:///tmp/x' }, ['semgrep'])).toMatchObject({ plan: 'explicit', tools: ['semgrep'] });
    expect(resolveScanPlan({ kind: 'image', reference: 'nginx:1' }, ['trivy'])).toMatchObject({ plan: 'explicit', tools: ['trivy'], deferred: false });
    const image = resolveScanPlan({ kind: 'image', reference: 'nginx:1' }, undefined);
    expect(image).toMatchObject({ plan: 'automatic', deferred: false, tools: ['image', 'sca'] });
    expect(image.reason).toEqual(expect.any(String));
    expect(() => resolveScanPlan({ kind: 'other', name: 'x' }, undefined)).toThrow(
      expect.objectContaining({ code: 'validation_failed', errors: [{ field: 'body.tools', issue: 'required for an other target' }] }),
    );
  });

  it('says why a built-in tool cannot run: not available here, or not for this kind of target', () => {
    const here = { advisoryDatabase: true };
    expect(builtinToolSkipReason('sca', 'repository', here)).toBeNull();
    expect(builtinToolSkipReason('secrets', 'repository', here)).toBeNull();
    expect(builtinToolSkipReason('dast', 'url', here)).toEqual({ error_code: 'tool_not_available', message: 'The built-in tool "dast" is not available in this deployment.' });
    expect(builtinToolSkipReason('sca', 'image', here)).toEqual({ error_code: 'target_not_supported', message: 'The built-in tool "sca" scans repository checkouts, not image targets.' });
    // Without advisories a dependency scan would be a false all-clear: it is skipped and says so.
    expect(builtinToolSkipReason('sca', 'repository', { advisoryDatabase: false })).toMatchObject({ error_code: 'advisories_not_configured' });
    expect(builtinToolSkipReason('secrets', 'repository', { advisoryDatabase: false })).toBeNull();
  });

  it('starts a scan with a delayed deadline job and one job per built-in tool only', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const jobs = scanStartJobs({
      orgId: 'o',
      scanId: 's',
      deadlineAt: new Date(now.getTime() + 5000),
      planDeferred: false,
      tools: [{ tool: 'secrets', status: 'queued' }, { tool: 'semgrep', status: 'pending' }],
      now,
    });
    expect(jobs).toEqual([
      { queue: 'scan-deadline', payload: { org_id: 'o', scan_id: 's' }, jobId: 'scan-deadline-s', delayMs: 5000 },
      { queue: 'scan-tool', payload: { org_id: 'o', scan_id: 's', tool: 'secrets' }, jobId: 'scan-tool-s-secrets' },
    ]);
  });
});
