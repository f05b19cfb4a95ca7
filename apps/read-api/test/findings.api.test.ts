import request from 'supertest';
import {
  allFindings,
  createExternalScan,
  getFindings,
  postReport,
  sarif,
  sarifResult,
  signedInTenant,
  startIngestHarness,
  type TIngestHarness,
} from '../../callback-api/test/support/ingest-harness';

describe('GET /findings and /findings/{id}/detail', () => {
  let h: TIngestHarness;
  const tenant = () => ({ orgId: h.orgId, token: h.token });
  let scanA: string;
  let scanB: string;

  beforeAll(async () => {
    h = await startIngestHarness();
    // 30 findings from tool-a (levels error/warning/note → high/medium/low), 5 from tool-b.
    const a = await createExternalScan(h.planes, tenant(), { tools: ['tool-a'], target: { kind: 'image', reference: 'registry.example.test/a:1' } });
    const levels = ['error', 'warning', 'note'];
    await postReport(h.planes, a, 'tool-a', sarif(Array.from({ length: 30 }, (_, i) => sarifResult(`rule-${i % 3}`, `src/f${i}.js`, i + 1, { level: levels[i % 3] })))).expect(200);
    const b = await createExternalScan(h.planes, tenant(), { tools: ['tool-b'], target: { kind: 'other', name: 'project-b' } });
    await postReport(h.planes, b, 'tool-b', sarif(Array.from({ length: 5 }, (_, i) => sarifResult('rule-b', `b${i}.py`, 1)))).expect(200);
    scanA = a.scanId;
    scanB = b.scanId;
  });
  afterAll(() => h?.close());

  it('pages through every finding with an opaque keyset cursor, newest first, without repeats', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await getFindings(h.planes, tenant(), { limit: 8, ...(cursor ? { cursor } : {}) }).expect(200);
      expect(res.body.items.length).toBeLessThanOrEqual(8);
      seen.push(...res.body.items.map((item: { finding_id: string }) => item.finding_id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(35);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('omits next_cursor when no more rows exist, and uses a default page of 50', async () => {
    const res = await getFindings(h.planes, tenant()).expect(200);
    expect(res.body.items).toHaveLength(35);
    expect(res.body).not.toHaveProperty('next_cursor');
  });

  it('filters by severity and status lists, scan, tool and entity', async () => {
    expect(await allFindings(h.planes, tenant(), { severity: 'high' })).toHaveLength(15);
    expect(await allFindings(h.planes, tenant(), { severity: 'medium,low' })).toHaveLength(20);
    expect(await allFindings(h.planes, tenant(), { status: 'open,fixed' })).toHaveLength(35);
    expect(await allFindings(h.planes, tenant(), { status: 'fixed' })).toHaveLength(0);
    expect(await allFindings(h.planes, tenant(), { scan_id: scanB })).toHaveLength(5);
    expect(await allFindings(h.planes, tenant(), { tool: 'tool-a', severity: 'low' })).toHaveLength(10);
    const byEntity = await allFindings(h.planes, tenant(), { entity: 'image:registry.example.test/a:1' });
    expect(byEntity).toHaveLength(30);
    expect(byEntity[0].entity).toEqual({ type: 'image', id: 'registry.example.test/a:1', name: 'registry.example.test/a:1' });
    expect(await allFindings(h.planes, tenant(), { scan_id: scanA, severity: 'high' })).toHaveLength(10);
  });

  it('refuses a cursor replayed with other filters, and garbage cursors, with 422', async () => {
    const first = await getFindings(h.planes, tenant(), { limit: 5, severity: 'high' }).expect(200);
    const cursor = first.body.next_cursor;
    await getFindings(h.planes, tenant(), { limit: 5, severity: 'high', cursor }).expect(200);
    const replayed = await getFindings(h.planes, tenant(), { limit: 5, severity: 'low', cursor }).expect(422);
    expect(replayed.body).toMatchObject({ error_code: 'validation_failed', field: 'query.cursor' });
    await getFindings(h.planes, tenant(), { cursor }).expect(422);
    await getFindings(h.planes, tenant(), { cursor: 'definitely-not-a-cursor' }).expect(422);
  });

  it('refuses unknown values, unknown parameters and out-of-range limits with 422 naming the field', async () => {
    expect((await getFindings(h.planes, tenant(), { severity: 'severe' }).expect(422)).body.field).toBe('query.severity');
    expect((await getFindings(h.planes, tenant(), { status: 'open,closed' }).expect(422)).body.field).toBe('query.status');
    expect((await getFindings(h.planes, tenant(), { entity: 'planet:earth' }).expect(422)).body.field).toBe('query.entity');
    expect((await getFindings(h.planes, tenant(), { scan_id: 'nope' }).expect(422)).body.field).toBe('query.scan_id');
    expect((await getFindings(h.planes, tenant(), { limit: 501 }).expect(422)).body.field).toBe('query.limit');
    expect((await getFindings(h.planes, tenant(), { limit: 0 }).expect(422)).body.field).toBe('query.limit');
    expect((await getFindings(h.planes, tenant(), { org_id: h.orgId }).expect(422)).body.field).toBe('query.org_id');
  });

  it('returns the detail with typed evidence, history and dispositions', async () => {
    const [item] = (await getFindings(h.planes, tenant(), { limit: 1, scan_id: scanA }).expect(200)).body.items;
    const res = await request(h.planes.app('read')).get(`/api/v2/findings/${item.finding_id}/detail`).set('Authorization', `Bearer ${h.token}`).set('X-Organization-ID', h.orgId).expect(200);
    expect(res.body).toMatchObject({
      ...item,
      description: expect.any(String),
      suppression: null,
      first_seen_scan_id: scanA,
      last_seen_scan_id: scanA,
      evidence: [{ kind: 'code_span', region: { path: expect.any(String), start_line: expect.any(Number) }, snippet: 'eval(input)' }],
      history: [],
      dispositions: [],
    });
  });

  it('hides another organization’s findings: their ids are 404 and lists are empty', async () => {
    const [item] = (await getFindings(h.planes, tenant(), { limit: 1 }).expect(200)).body.items;
    const stranger = await signedInTenant(h.planes);
    const res = await request(h.planes.app('read')).get(`/api/v2/findings/${item.finding_id}/detail`).set('Authorization', `Bearer ${stranger.token}`).set('X-Organization-ID', stranger.orgId).expect(404);
    expect(res.body.error_code).toBe('not_found');
    expect((await getFindings(h.planes, stranger).expect(200)).body.items).toEqual([]);
    // And naming the other organization in the header is not membership.
    await getFindings(h.planes, { orgId: h.orgId, token: stranger.token }).expect(403);
  });

  it('needs an access token', async () => {
    await request(h.planes.app('read')).get('/api/v2/findings').set('X-Organization-ID', h.orgId).expect(401);
    await request(h.planes.app('read')).get('/api/v2/findings/0190a7b2-0000-7000-8000-000000000001/detail').set('Authorization', `Bearer ${h.token}`).set('X-Organization-ID', h.orgId).expect(404);
  });
});
