import request from 'supertest';
import type { TTarget } from '@palisade/contracts';
import { createOrgWithMember, randomSuffix, startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { createScanInTransaction, uuidv7 } from '@palisade/db';
import { buildReadApi } from '../../../read-api/src/app';
import { buildCallbackApi } from '../../src/app';

/** Write, read and callback planes in process, and a signed-in owner of a fresh organization. */
export interface TIngestHarness {
  planes: TTestPlanes;
  orgId: string;
  token: string;
  close(): Promise<void>;
}

export async function startIngestHarness(): Promise<TIngestHarness> {
  const planes = await startTestPlanes({ read: buildReadApi, callback: buildCallbackApi });
  // No write plane here: the read plane's key store issues the test's access tokens.
  await planes.plane('read').runtime.auth.signingKeys.ensureActiveKey();
  const tenant = await signedInTenant(planes);
  return { planes, ...tenant, close: () => planes.close() };
}

export async function signedInTenant(planes: TTestPlanes): Promise<{ orgId: string; token: string }> {
  const { org, user } = await createOrgWithMember(planes.db, 'owner');
  const { token } = await planes.plane('read').runtime.auth.accessTokens.issue({ kind: 'human', id: user.id, isPlatformAdmin: false });
  return { orgId: org.id, token };
}

export interface TExternalScan {
  scanId: string;
  /** tool → callback token */
  tokens: Record<string, string>;
}

/**
 * Creates a scan of external tools the way POST /scans does (createScanInTransaction: tool rows,
 * hashed credentials, outbox row) and returns the plaintext callback tokens.
 */
export async function createExternalScan(
  planes: Pick<TTestPlanes, 'db'>,
  tenant: { orgId: string },
  options: { tools?: string[]; target?: TTarget; deadlineAt?: Date } = {},
): Promise<TExternalScan> {
  const tools = options.tools ?? ['ext-scanner'];
  const target = options.target ?? { kind: 'other', name: `project-${randomSuffix()}` };
  const created = await planes.db.primary.$transaction((tx) =>
    createScanInTransaction(tx, {
      orgId: tenant.orgId,
      scanId: uuidv7(),
      target,
      tools,
      deadlineAt: options.deadlineAt ?? new Date(Date.now() + 3600_000),
    }),
  );
  return { scanId: created.scan.id, tokens: Object.fromEntries(created.tokens) };
}

export function reportPath(scanId: string, tool: string): string {
  return `/api/v2/callbacks/scans/${scanId}/tools/${tool}`;
}

/** Posts a raw report body to the callback plane. */
export function postReport(
  planes: TTestPlanes,
  scan: TExternalScan,
  tool: string,
  body: string | Buffer,
  options: { contentType?: string; format?: string; key?: string; token?: string } = {},
) {
  let req = request(planes.app('callback'))
    .post(reportPath(scan.scanId, tool))
    .set('Authorization', `Bearer ${options.token ?? scan.tokens[tool]}`)
    .set('Content-Type', options.contentType ?? 'application/sarif+json');
  if (options.format) req = req.set('X-Report-Format', options.format);
  if (options.key) req = req.set('Idempotency-Key', options.key);
  // A string goes out as is (superagent would JSON-encode a Buffer under a +json content type).
  return req.send(typeof body === 'string' ? body : body.toString('utf8'));
}

export function getFindings(planes: TTestPlanes, tenant: { orgId: string; token: string }, query: Record<string, string | number> = {}) {
  return request(planes.app('read'))
    .get('/api/v2/findings')
    .query(query)
    .set('Authorization', `Bearer ${tenant.token}`)
    .set('X-Organization-ID', tenant.orgId);
}

/** Every finding matching the query, following next_cursor. */
export async function allFindings(planes: TTestPlanes, tenant: { orgId: string; token: string }, query: Record<string, string | number> = {}) {
  const items: Array<Record<string, any>> = [];
  let cursor: string | undefined;
  do {
    const res = await getFindings(planes, tenant, { limit: 500, ...query, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`GET /findings: ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

export async function countRows(planes: TTestPlanes, sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await planes.db.pool.query(`SELECT count(*)::int AS n FROM (${sql}) q`, values);
  return rows[0].n;
}

/** A SARIF 2.1.0 log from result objects (one run). */
export function sarif(results: object[], driver: object = { name: 'ExtScanner', rules: [] }): string {
  return JSON.stringify({ version: '2.1.0', $schema: 'https://json.schemastore.org/sarif-2.1.0.json', runs: [{ tool: { driver }, results }] });
}

export function sarifResult(ruleId: string, path: string, line: number, extra: Record<string, unknown> = {}): object {
  return {
    ruleId,
    level: 'error',
    message: { text: `${ruleId} at ${path}:${line}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: path }, region: { startLine: line, snippet: { text: 'eval(input)' } } } }],
    ...extra,
  };
}
