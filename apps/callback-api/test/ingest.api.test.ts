import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import {
  allFindings,
  countRows,
  createExternalScan,
  postReport,
  sarif,
  sarifResult,
  startIngestHarness,
  type TIngestHarness,
} from './support/ingest-harness';

describe('scanner callback ingest (read and callback planes in process)', () => {
  let h: TIngestHarness;
  const tenant = () => ({ orgId: h.orgId, token: h.token });
  const detail = (id: string) =>
    request(h.planes.app('read')).get(`/api/v2/findings/${id}/detail`).set('Authorization', `Bearer ${h.token}`).set('X-Organization-ID', h.orgId);
  const toolRow = async (scanId: string, tool: string) =>
    (await h.planes.db.pool.query('SELECT status::text AS status, findings_count, report_complete FROM scan_tools WHERE scan_id = $1 AND tool = $2', [scanId, tool])).rows[0];

  beforeAll(async () => {
    h = await startIngestHarness();
  });
  afterAll(() => h?.close());

  const threeResults = () => sarif([sarifResult('js/xss', 'src/a.js', 10), sarifResult('js/xss', 'src/b.js', 20), sarifResult('js/sqli', 'src/c.js', 5)]);

  it('ingests a SARIF report, succeeds the tool and the scan, and serves the findings with evidence and history', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    const res = await postReport(h.planes, scan, 'ext-scanner', threeResults()).expect(200);
    expect(res.body).toEqual({
      scan_id: scan.scanId,
      tool: 'ext-scanner',
      format: 'sarif',
      tool_status: 'succeeded',
      scan_status: 'succeeded',
      results: 3,
      findings: { new: 3, seen_again: 0, fixed: 0, suppressed: 0, duplicates: 0 },
      report_complete: true,
      incomplete_reason: null,
      idempotency_key: null,
      ingested_at: expect.any(String),
    });
    expect(await toolRow(scan.scanId, 'ext-scanner')).toEqual({ status: 'succeeded', findings_count: 3, report_complete: true });
    const items = await allFindings(h.planes, tenant(), { scan_id: scan.scanId });
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ status: 'open', severity: 'high', tool: 'ext-scanner', entity: { type: 'project_version' }, rule: { cwe: [], cve: [] } });

    const shown = await detail(items[0].finding_id).expect(200);
    expect(shown.body.evidence).toEqual([expect.objectContaining({ kind: 'code_span' })]);
    // History records status changes; a finding's creation is its first_seen_at / first_seen_scan_id.
    expect(shown.body).toMatchObject({ first_seen_scan_id: scan.scanId, last_seen_scan_id: scan.scanId, history: [] });
    expect(shown.body.dispositions).toEqual([]);
    // Every new finding announced through the outbox, in the same transaction (grouped per row).
    const events = await h.planes.db.pool.query("SELECT event, payload FROM outbox WHERE org_id = $1 AND topic = 'findings' AND payload->>'scan_id' = $2", [h.orgId, scan.scanId]);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].event).toBe('findings.created');
    expect(events.rows[0].payload).toEqual({
      scan_id: scan.scanId,
      tool: 'ext-scanner',
      entity: items[0].entity,
      findings: expect.arrayContaining(
        items.map((item) => ({ finding_id: item.finding_id, severity: item.severity, title: item.title, status: 'open', previous_status: null })),
      ),
    });
    expect(events.rows[0].payload.findings).toHaveLength(3);
  });

  it('answers a retry with the same Idempotency-Key and body from the stored result, adding nothing', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    const first = await postReport(h.planes, scan, 'ext-scanner', threeResults(), { key: 'run-42' }).expect(200);
    const rowsBefore = await countRows(h.planes, 'SELECT 1 FROM findings WHERE org_id = $1', [h.orgId]);
    const again = await postReport(h.planes, scan, 'ext-scanner', threeResults(), { key: 'run-42' }).expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE org_id = $1', [h.orgId])).toBe(rowsBefore);

    const other = await postReport(h.planes, scan, 'ext-scanner', sarif([sarifResult('js/xss', 'src/z.js', 1)]), { key: 'run-42' }).expect(409);
    expect(other.body).toMatchObject({ error_code: 'idempotency_key_reused', category: 'config', retryable: false });
    const noKey = await postReport(h.planes, scan, 'ext-scanner', threeResults()).expect(409);
    expect(noKey.body.error_code).toBe('tool_already_reported');
  });

  it('refuses missing, wrong, foreign-tool and expired credentials and tools not in the scan', async () => {
    const scan = await createExternalScan(h.planes, tenant(), { tools: ['scanner-a', 'scanner-b'] });
    const body = threeResults();
    const none = await request(h.planes.app('callback')).post(`/api/v2/callbacks/scans/${scan.scanId}/tools/scanner-a`).set('Content-Type', 'application/sarif+json').send(body).expect(401);
    expect(none.body).toMatchObject({ error_code: 'invalid_callback_credential', category: 'auth' });
    expect((await postReport(h.planes, scan, 'scanner-a', body, { token: 'pscb_wrong' }).expect(401)).body.error_code).toBe('invalid_callback_credential');
    // A real credential of one scan does not open another scan.
    const otherScan = await createExternalScan(h.planes, tenant(), { tools: ['scanner-a'] });
    await postReport(h.planes, otherScan, 'scanner-a', body, { token: scan.tokens['scanner-a'] }).expect(401);
    expect((await postReport(h.planes, scan, 'scanner-b', body, { token: scan.tokens['scanner-a'] }).expect(403)).body.error_code).toBe('forbidden');
    expect((await postReport(h.planes, scan, 'scanner-c', body, { token: scan.tokens['scanner-a'] }).expect(404)).body.error_code).toBe('not_found');

    await h.planes.db.pool.query("UPDATE scan_tools SET deadline_at = now() - interval '1 second' WHERE scan_id = $1 AND tool = 'scanner-b'", [scan.scanId]);
    expect((await postReport(h.planes, scan, 'scanner-b', body).expect(401)).body.error_code).toBe('callback_credential_expired');
    expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE last_seen_scan_id = $1', [scan.scanId])).toBe(0);
  });

  it('refuses unknown formats with 415 and bad reports with 422, writing nothing', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    const post = (body: string, options: Parameters<typeof postReport>[4] = {}) => postReport(h.planes, scan, 'ext-scanner', body, options);
    expect((await post(threeResults(), { contentType: 'text/plain' }).expect(415)).body.error_code).toBe('unsupported_media_type');
    await post('{}', { contentType: 'application/json' }).expect(415);
    await post('{}', { contentType: 'application/json', format: 'nessus' }).expect(415);

    const malformed = await post('{"version": "2.1.0", "runs": [ {"results": [ nope ] } ] }').expect(422);
    expect(malformed.body).toMatchObject({ error_code: 'invalid_report', field: expect.stringMatching(/^body/) });
    expect((await post(JSON.stringify({ version: '2.0.0', runs: [] })).expect(422)).body.errors[0].issue).toMatch(/unsupported_version/);
    const full = threeResults();
    const truncated = await post(full.slice(0, full.length - 40)).expect(422);
    expect(truncated.body.errors[0].issue).toMatch(/truncated_report/);
    await post('').expect(422);
    await post('{"bomFormat": "CycloneDX", "specVersion": "1.5", "vulnerabilities": 7}', { contentType: 'application/vnd.cyclonedx+json' }).expect(422);

    expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE last_seen_scan_id = $1', [scan.scanId])).toBe(0);
    expect((await toolRow(scan.scanId, 'ext-scanner')).status).toBe('pending');
    // After all those refusals the tool still takes its real report.
    await post(threeResults()).expect(200);
  });

  it('refuses a declared Content-Length over 64 MiB before reading the body', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    const res = await rawPost(h, scan.scanId, 'ext-scanner', scan.tokens['ext-scanner'], { 'Content-Length': String(64 * 1024 * 1024 + 1) }, Buffer.from('{"version":'));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error_code).toBe('payload_too_large');
  });

  it('stops a chunked body with 413 as soon as it passes 64 MiB, writing nothing', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    // Valid JSON all the way (whitespace inside the results array), so only the cap can stop it.
    const head = Buffer.from('{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"X"}},"results":[');
    const filler = Buffer.alloc(1024 * 1024, 0x20);
    const res = await rawPost(h, scan.scanId, 'ext-scanner', scan.tokens['ext-scanner'], { 'Transfer-Encoding': 'chunked' }, head, filler, 128);
    expect(res.status).toBe(413);
    // What the client handed over includes what the two sockets' kernel buffers held when the
    // plane hung up (up to ~10 MiB on loopback, more under load): far below the 128 MiB a plane
    // that read on would have taken, which is what this checks.
    expect(res.sentBytes).toBeLessThan(96 * 1024 * 1024);
    expect((await toolRow(scan.scanId, 'ext-scanner')).status).toBe('pending');
  });

  it('takes a report compressed with gzip, deflate or br as the same report; refuses other codings, bytes that do not decode and a body that unpacks past 64 MiB', async () => {
    const report = Buffer.from(threeResults());
    const compressors = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [coding, compress] of Object.entries(compressors)) {
      const scan = await createExternalScan(h.planes, tenant());
      const res = await rawPost(h, scan.scanId, 'ext-scanner', scan.tokens['ext-scanner'], { 'Content-Encoding': coding, 'Idempotency-Key': `zip-${coding}` }, compress(report));
      expect([res.status, JSON.parse(res.body).findings]).toEqual([200, expect.objectContaining({ new: 3 })]);
      // The key stands for the report, however it travelled: the same report uncompressed is the retry.
      const again = await postReport(h.planes, scan, 'ext-scanner', threeResults(), { key: `zip-${coding}` }).expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
    }

    const scan = await createExternalScan(h.planes, tenant());
    const post = async (headers: Record<string, string>, body: Buffer) => {
      const res = await rawPost(h, scan.scanId, 'ext-scanner', scan.tokens['ext-scanner'], headers, body);
      return [res.status, JSON.parse(res.body).error_code];
    };
    expect(await post({ 'Content-Encoding': 'xz' }, report)).toEqual([415, 'unsupported_media_type']);
    expect(await post({ 'Content-Encoding': 'gzip, br' }, brotliCompressSync(gzipSync(report)))).toEqual([415, 'unsupported_media_type']);
    expect(await post({ 'Content-Encoding': 'gzip' }, report)).toEqual([422, 'invalid_report']);
    const gzipped = gzipSync(report);
    expect(await post({ 'Content-Encoding': 'gzip' }, Buffer.concat([gzipped.subarray(0, 30), Buffer.from('not deflate data')]))).toEqual([422, 'invalid_report']);
    // 65 MiB of valid JSON (whitespace in the results array) in a body of about 65 KiB.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"X"}},"results":['), Buffer.alloc(65 * 1024 * 1024, 0x20), Buffer.from(']}]}')]));
    expect(await post({ 'Content-Encoding': 'gzip' }, bomb)).toEqual([413, 'payload_too_large']);
    expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE last_seen_scan_id = $1', [scan.scanId])).toBe(0);
    expect((await toolRow(scan.scanId, 'ext-scanner')).status).toBe('pending');
    expect(await post({ 'Content-Encoding': 'identity' }, report)).toEqual([200, undefined]);
  });

  it('marks findings absent from a later complete run fixed, and reopens one that comes back', async () => {
    const target = { kind: 'repository' as const, url: `https://git.example.test/acme/fixes-${Date.now()}` };
    const first = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    await postReport(h.planes, first, 'semgrep-ext', threeResults()).expect(200);

    const second = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    const res = await postReport(h.planes, second, 'semgrep-ext', sarif([sarifResult('js/xss', 'src/a.js', 10), sarifResult('js/xss', 'src/b.js', 20)])).expect(200);
    expect(res.body.findings).toEqual({ new: 0, seen_again: 2, fixed: 1, suppressed: 0, duplicates: 0 });
    const fixed = await allFindings(h.planes, tenant(), { entity: `repository:${target.url}`, status: 'fixed' });
    expect(fixed).toHaveLength(1);
    expect(fixed[0].rule.id).toBe('js/sqli');
    expect((await detail(fixed[0].finding_id).expect(200)).body.history).toEqual([
      expect.objectContaining({ from: 'open', to: 'fixed', scan_id: second.scanId, reason: 'absent from a complete report of this tool' }),
    ]);

    const third = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    const back = await postReport(h.planes, third, 'semgrep-ext', threeResults()).expect(200);
    expect(back.body.findings).toMatchObject({ new: 0, seen_again: 3, fixed: 0 });
    const reopened = await detail(fixed[0].finding_id).expect(200);
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.history.map((e: { to: string }) => e.to)).toEqual(['fixed', 'open']);
    // Another tool's findings on the same entity are not its business.
    const other = await createExternalScan(h.planes, tenant(), { tools: ['other-tool'], target });
    expect((await postReport(h.planes, other, 'other-tool', sarif([])).expect(200)).body.findings.fixed).toBe(0);
  });

  it('stores the findings of a report whose tool says its run did not complete, but marks nothing fixed by its absence', async () => {
    const target = { kind: 'repository' as const, url: `https://git.example.test/acme/incomplete-${Date.now()}` };
    const first = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    await postReport(h.planes, first, 'semgrep-ext', threeResults()).expect(200);

    // Semgrep stopped on a config error: no results, one error at level "error".
    const failedRun = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    const semgrepError = { errors: [{ code: 2, level: 'error', type: 'UnknownLanguageError', message: 'invalid language: brainfuck' }], results: [], version: '1.90.0' };
    const res = await postReport(h.planes, failedRun, 'semgrep-ext', JSON.stringify(semgrepError), { contentType: 'application/json', format: 'semgrep' }).expect(200);
    expect(res.body).toMatchObject({
      tool_status: 'succeeded',
      findings: { new: 0, seen_again: 0, fixed: 0 },
      report_complete: false,
      incomplete_reason: 'Semgrep reported an error (UnknownLanguageError: invalid language: brainfuck)',
    });
    expect(await toolRow(failedRun.scanId, 'semgrep-ext')).toMatchObject({ status: 'succeeded', report_complete: false });
    const scan = await request(h.planes.app('read')).get(`/api/v2/scans/${failedRun.scanId}`).set('Authorization', `Bearer ${h.token}`).set('X-Organization-ID', h.orgId).expect(200);
    expect(scan.body.tools[0].error).toEqual({
      error_code: 'report_incomplete',
      message: 'Semgrep reported an error (UnknownLanguageError: invalid language: brainfuck); findings it does not list were not marked fixed.',
    });
    expect(await allFindings(h.planes, tenant(), { entity: `repository:${target.url}`, status: 'fixed' })).toHaveLength(0);

    // A SARIF run that was not successful keeps what it found and fixes nothing either.
    const partial = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    const unsuccessful = JSON.stringify({
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'ExtScanner' } }, invocations: [{ executionSuccessful: false }], results: [sarifResult('js/xss', 'src/a.js', 10)] }],
    });
    const partialRes = await postReport(h.planes, partial, 'semgrep-ext', unsuccessful).expect(200);
    expect(partialRes.body).toMatchObject({ findings: { new: 0, seen_again: 1, fixed: 0 }, report_complete: false });
    expect(await allFindings(h.planes, tenant(), { entity: `repository:${target.url}`, status: 'fixed' })).toHaveLength(0);

    // The next complete report judges absence again.
    const complete = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext'], target });
    const completeRes = await postReport(h.planes, complete, 'semgrep-ext', sarif([sarifResult('js/xss', 'src/a.js', 10)])).expect(200);
    expect(completeRes.body).toMatchObject({ findings: { seen_again: 1, fixed: 2 }, report_complete: true, incomplete_reason: null });
  });

  it('keeps the tools of one entity apart across scans: each is merged and marked fixed only against its own findings', async () => {
    const target = { kind: 'repository' as const, url: `https://git.example.test/acme/two-tools-${Date.now()}` };
    const first = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext', 'codeql-ext'], target });
    await postReport(h.planes, first, 'semgrep-ext', threeResults()).expect(200);
    await postReport(h.planes, first, 'codeql-ext', sarif([sarifResult('js/xss', 'src/a.js', 10), sarifResult('js/path', 'src/d.js', 1)])).expect(200);

    // A scan with the other tool only: the first tool's findings stay last seen by the first scan.
    const between = await createExternalScan(h.planes, tenant(), { tools: ['codeql-ext'], target });
    const same = await postReport(h.planes, between, 'codeql-ext', sarif([sarifResult('js/xss', 'src/a.js', 10), sarifResult('js/path', 'src/d.js', 1)])).expect(200);
    expect(same.body.findings).toEqual({ new: 0, seen_again: 2, fixed: 0, suppressed: 0, duplicates: 0 });

    // The first tool comes back with one result gone: its findings are found through the first scan.
    const later = await createExternalScan(h.planes, tenant(), { tools: ['semgrep-ext', 'codeql-ext'], target });
    const semgrep = await postReport(h.planes, later, 'semgrep-ext', sarif([sarifResult('js/xss', 'src/a.js', 10), sarifResult('js/xss', 'src/b.js', 20)])).expect(200);
    expect(semgrep.body.findings).toEqual({ new: 0, seen_again: 2, fixed: 1, suppressed: 0, duplicates: 0 });
    const codeql = await postReport(h.planes, later, 'codeql-ext', sarif([])).expect(200);
    expect(codeql.body.findings).toEqual({ new: 0, seen_again: 0, fixed: 2, suppressed: 0, duplicates: 0 });
    const fixed = await allFindings(h.planes, tenant(), { entity: `repository:${target.url}`, status: 'fixed' });
    expect(fixed.map((f) => `${f.tool} ${f.rule.id}`).sort()).toEqual(['codeql-ext js/path', 'codeql-ext js/xss', 'semgrep-ext js/sqli']);
    const open = await allFindings(h.planes, tenant(), { entity: `repository:${target.url}`, status: 'open' });
    expect(open).toHaveLength(2);
  });

  it('stores a SARIF-suppressed result dismissed, with the suppression as its reason', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    const suppressed = sarifResult('js/xss', 'src/s.js', 3, { suppressions: [{ kind: 'inSource', status: 'accepted', justification: 'sanitised upstream' }] });
    const res = await postReport(h.planes, scan, 'ext-scanner', sarif([suppressed, sarifResult('js/xss', 'src/t.js', 4)])).expect(200);
    expect(res.body.findings).toMatchObject({ new: 2, suppressed: 1 });
    const [dismissed] = await allFindings(h.planes, tenant(), { scan_id: scan.scanId, status: 'dismissed' });
    const shown = await detail(dismissed.finding_id).expect(200);
    expect(shown.body.suppression).toMatchObject({ kind: 'in_source', justification: 'sanitised upstream' });
    expect(shown.body.history[0]).toMatchObject({ from: null, to: 'dismissed', reason: expect.stringContaining('sanitised upstream') });
  });

  it('keeps two results of one rule on one line apart, and a repeated result once', async () => {
    const scan = await createExternalScan(h.planes, tenant());
    const at = (column: number) => ({ physicalLocation: { artifactLocation: { uri: 'src/line.js' }, region: { startLine: 7, startColumn: column } } });
    const left = sarifResult('js/xss', 'src/line.js', 7, { locations: [at(3)] });
    const right = sarifResult('js/xss', 'src/line.js', 7, { locations: [at(40)] });
    const hinted = sarifResult('js/sqli', 'src/h.js', 1, { partialFingerprints: { primaryLocationLineHash: 'abc:1' } });
    const res = await postReport(h.planes, scan, 'ext-scanner', sarif([left, right, left, hinted, hinted])).expect(200);
    expect(res.body).toMatchObject({ results: 5, findings: { new: 3, duplicates: 2 } });
  });

  it('stores values far beyond the model limits clipped to them, on a first report and on a merge', async () => {
    const target = { kind: 'repository' as const, url: `https://git.example.test/acme/long-${Date.now()}` };
    const long = (rule: string) =>
      sarif([
        {
          ...sarifResult(rule.repeat(20_000), 'u'.repeat(20_000), 1),
          message: { text: 'm'.repeat(200_000) },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'u'.repeat(20_000) }, region: { startLine: 1, snippet: { text: 's'.repeat(100_000) } } } }],
        },
      ]);
    for (const tool of ['first-report', 'merged']) {
      const scan = await createExternalScan(h.planes, tenant(), { tools: [tool], target });
      // The merge path: this tool has a finding of the entity already, so its report is staged and merged.
      if (tool === 'merged') await postReport(h.planes, await createExternalScan(h.planes, tenant(), { tools: [tool], target }), tool, long('b')).expect(200);
      expect((await postReport(h.planes, scan, tool, long('a')).expect(200)).body.findings).toMatchObject({ new: 1 });
      const [item] = await allFindings(h.planes, tenant(), { scan_id: scan.scanId });
      expect([item.title.length, item.rule.id.length, item.location.path.length]).toEqual([1024, 256, 4096]);
      const shown = await detail(item.finding_id).expect(200);
      expect([shown.body.description.length, shown.body.evidence[0].snippet.length]).toEqual([8192, 8192]);
    }
  });

  it('records a tool that failed without a report, idempotently, and refuses a report after it', async () => {
    const scan = await createExternalScan(h.planes, tenant(), { tools: ['crashy', 'steady'] });
    const outcome = (tool: string, body: object) =>
      request(h.planes.app('callback')).post(`/api/v2/callbacks/scans/${scan.scanId}/tools/${tool}/outcome`).set('Authorization', `Bearer ${scan.tokens[tool]}`).send(body);
    const failed = await outcome('crashy', { status: 'failed', error: { error_code: 'oom', message: 'killed by the OOM killer' } }).expect(200);
    expect(failed.body).toEqual({ scan_id: scan.scanId, tool: 'crashy', tool_status: 'failed', scan_status: 'running' });
    await outcome('crashy', { status: 'failed' }).expect(200);
    expect((await outcome('crashy', { status: 'skipped' }).expect(409)).body.error_code).toBe('tool_already_reported');
    expect((await postReport(h.planes, scan, 'crashy', threeResults()).expect(409)).body.error_code).toBe('tool_already_reported');
    await outcome('steady', { status: 'succeeded' }).expect(422);
    await outcome('steady', { status: 'skipped', extra: 1 }).expect(422);

    const done = await postReport(h.planes, scan, 'steady', threeResults()).expect(200);
    expect(done.body.scan_status).toBe('partial');
    const scanRow = (await h.planes.db.pool.query('SELECT status::text AS status, findings_count FROM scans WHERE id = $1', [scan.scanId])).rows[0];
    expect(scanRow).toEqual({ status: 'partial', findings_count: 3 });
  });

  it('refuses a report after the scan ended', async () => {
    const scan = await createExternalScan(h.planes, tenant(), { tools: ['late-a', 'late-b'] });
    await h.planes.db.pool.query("UPDATE scans SET status = 'cancelled' WHERE id = $1", [scan.scanId]);
    await h.planes.db.pool.query("UPDATE scan_tools SET status = 'cancelled' WHERE scan_id = $1", [scan.scanId]);
    expect((await postReport(h.planes, scan, 'late-a', threeResults()).expect(409)).body.error_code).toBe('scan_finished');
  });

  it('applies two concurrent reports for one entity one after the other, without duplicates', async () => {
    const target = { kind: 'image' as const, reference: `registry.example.test/app:${Date.now()}` };
    const a = await createExternalScan(h.planes, tenant(), { tools: ['grype-ext'], target });
    const b = await createExternalScan(h.planes, tenant(), { tools: ['grype-ext'], target });
    const many = (offset: number) => sarif(Array.from({ length: 400 }, (_, i) => sarifResult('rule-x', `f${(i + offset) % 600}.js`, 1)));
    const [ra, rb] = await Promise.all([postReport(h.planes, a, 'grype-ext', many(0)), postReport(h.planes, b, 'grype-ext', many(200))]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.findings.new + rb.body.findings.new).toBe(600);
    expect(await countRows(h.planes, 'SELECT 1 FROM findings WHERE org_id = $1 AND entity_id = $2', [h.orgId, target.reference])).toBe(600);
    // In either order the newer scan (b) is the truth about the present: its 400 are open and
    // the 200 only the older scan saw are fixed (absent from the newer complete run).
    const byStatus = await h.planes.db.pool.query(
      'SELECT status::text AS status, count(*)::int AS n FROM findings WHERE org_id = $1 AND entity_id = $2 GROUP BY status ORDER BY status',
      [h.orgId, target.reference],
    );
    expect(byStatus.rows).toEqual([{ status: 'fixed', n: 200 }, { status: 'open', n: 400 }]);
  });

  it('lets a late report of an older scan add what it saw without undoing the newer report', async () => {
    const target = { kind: 'image' as const, reference: `registry.example.test/late:${Date.now()}` };
    const older = await createExternalScan(h.planes, tenant(), { tools: ['trivy-ext'], target });
    const newer = await createExternalScan(h.planes, tenant(), { tools: ['trivy-ext'], target });
    const report = (files: string[]) => sarif(files.map((file) => sarifResult('rule-late', file, 1)));
    await postReport(h.planes, newer, 'trivy-ext', report(['kept.js', 'new.js'])).expect(200);
    const late = await postReport(h.planes, older, 'trivy-ext', report(['kept.js', 'gone.js'])).expect(200);
    // gone.js was seen only by the older scan: stored, but already fixed; nothing of the newer report moved.
    expect(late.body.findings).toMatchObject({ new: 1, fixed: 0 });
    const rows = await h.planes.db.pool.query(
      "SELECT location->>'path' AS path, status::text AS status, last_seen_scan_id::text AS seen FROM findings WHERE org_id = $1 AND entity_id = $2 ORDER BY 1",
      [h.orgId, target.reference],
    );
    expect(rows.rows).toEqual([
      { path: 'gone.js', status: 'fixed', seen: older.scanId },
      { path: 'kept.js', status: 'open', seen: newer.scanId },
      { path: 'new.js', status: 'open', seen: newer.scanId },
    ]);
    // Its tool still counts both findings it reported, kept.js included.
    const counted = await h.planes.db.pool.query('SELECT findings_count FROM scan_tools WHERE org_id = $1 AND scan_id = $2', [h.orgId, older.scanId]);
    expect(counted.rows).toEqual([{ findings_count: 2 }]);
  });
});

/** A raw HTTP POST (no supertest buffering), optionally streaming `repeat` copies of `filler`. */
async function rawPost(
  h: TIngestHarness,
  scanId: string,
  tool: string,
  token: string,
  headers: Record<string, string>,
  head: Buffer,
  filler?: Buffer,
  repeat = 0,
): Promise<{ status: number; body: string; sentBytes: number }> {
  const http = await import('node:http');
  const server = h.planes.app('callback').listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    return await new Promise((resolve, reject) => {
      let sentBytes = 0;
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: `/api/v2/callbacks/scans/${scanId}/tools/${tool}`, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/sarif+json', ...headers } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentBytes }));
        },
      );
      req.on('error', (error) => (sentBytes > 0 ? undefined : reject(error)));
      req.write(head);
      sentBytes += head.length;
      let left = repeat;
      const pump = () => {
        while (left > 0) {
          left--;
          sentBytes += filler!.length;
          if (!req.write(filler!)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!headers['Content-Length']) req.end();
      };
      pump();
    });
  } finally {
    server.close();
  }
}
