import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type {
  TAccessTokenResponse,
  TCreateScanBody,
  TDeviceCodeResponse,
  TFinding,
  TFindingDetail,
  TJwks,
  TListFindingsResponse,
  TMeResponse,
  TScan,
  TScanRequestAccepted,
  TScanRequestTimeline,
} from '@palisade/contracts';
import { unwrap } from './api-error';
import { DEVICE_CODE_GRANT_TYPE, readDevicePollResponse, type TDevicePollResult } from './device-flow';
import { findingsSearchParams, type TFindingsQuery } from './findings-query';
import { paginate, paginateItems } from './pagination';

export { PalisadeApiError } from './api-error';

export interface TClientOptions {
  baseUrl: string;
  accessToken?: string;
  organizationId?: string;
  timeoutMs?: number;
}

/** POST /scans answers one target with the scan (201) and several with a scan request (202). */
export type TCreateScanResult = { status: 201; scan: TScan } | { status: 202; scanRequest: TScanRequestAccepted };

/**
 * The typed API client the CLI, the tests and the benchmarks use. It talks to the one
 * hostname (the edge) and never to a plane directly.
 */
export class PalisadeClient {
  readonly http: AxiosInstance;

  constructor(private readonly options: TClientOptions) {
    this.http = axios.create({
      baseURL: options.baseUrl.replace(/\/$/, ''),
      timeout: options.timeoutMs ?? 30_000,
      validateStatus: () => true,
      headers: { 'User-Agent': 'palisade-sdk/0.1' },
    });
  }

  get organizationId(): string | undefined {
    return this.options.organizationId;
  }

  withToken(accessToken: string, organizationId = this.options.organizationId): PalisadeClient {
    return new PalisadeClient({ ...this.options, accessToken, organizationId });
  }

  /** The raw answer, whatever its status: for callers that read refusals as results. */
  send(
    method: string,
    path: string,
    body?: unknown,
    options: { headers?: Record<string, string>; params?: Record<string, string> } = {},
  ): Promise<AxiosResponse> {
    return this.http.request({
      method,
      url: path,
      data: body,
      params: options.params,
      headers: {
        ...(this.options.accessToken ? { Authorization: `Bearer ${this.options.accessToken}` } : {}),
        ...(this.options.organizationId ? { 'X-Organization-ID': this.options.organizationId } : {}),
        ...options.headers,
      },
    });
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return unwrap<T>(await this.send(method, path, body, { headers }));
  }

  login(email: string, password: string): Promise<TAccessTokenResponse> {
    return this.request('POST', '/api/v2/auth/login', { email, password });
  }

  me(): Promise<TMeResponse> {
    return this.request('GET', '/api/v2/me');
  }

  jwks(): Promise<TJwks> {
    return this.request('GET', '/api/v2/auth/jwks.json');
  }

  openApi(): Promise<Record<string, unknown>> {
    return this.request('GET', '/api/v2/openapi.json');
  }

  // --- device authorization grant (RFC 8628) ---

  /** Starts the flow: a device code to poll with and a user code for the person to approve. */
  startDeviceAuthorization(clientId: string, scope?: string): Promise<TDeviceCodeResponse> {
    return this.request('POST', '/api/v2/auth/device/code', { client_id: clientId, ...(scope ? { scope } : {}) });
  }

  /**
   * One poll of the token endpoint. The RFC's polling answers (authorization_pending, slow_down,
   * access_denied, expired_token) come back as results; any other refusal throws PalisadeApiError.
   */
  async pollDeviceToken(deviceCode: string, clientId: string): Promise<TDevicePollResult> {
    // Form-encoded, as RFC 6749 section 4.1.3 has OAuth clients send it.
    const form = new URLSearchParams({ grant_type: DEVICE_CODE_GRANT_TYPE, device_code: deviceCode, client_id: clientId });
    return readDevicePollResponse(await this.send('POST', '/api/v2/auth/device/token', form));
  }

  // --- scans ---

  async createScan(body: TCreateScanBody): Promise<TCreateScanResult> {
    const response = await this.send('POST', '/api/v2/scans', body);
    const data = unwrap<TScan | TScanRequestAccepted>(response);
    return response.status === 202 ? { status: 202, scanRequest: data as TScanRequestAccepted } : { status: 201, scan: data as TScan };
  }

  getScan(scanId: string): Promise<TScan> {
    return this.request('GET', `/api/v2/scans/${encodeURIComponent(scanId)}`);
  }

  getScanRequestTimeline(scanRequestId: string): Promise<TScanRequestTimeline> {
    return this.request('GET', `/api/v2/scan-requests/${encodeURIComponent(scanRequestId)}/timeline`);
  }

  // --- findings ---

  /** One page; pass its next_cursor back (with the same filters) for the next. */
  async listFindings(query: TFindingsQuery = {}): Promise<TListFindingsResponse> {
    return unwrap(await this.send('GET', '/api/v2/findings', undefined, { params: findingsSearchParams(query) }));
  }

  /** Every page of the list, following cursors from query.cursor (or the start). */
  listFindingPages(query: TFindingsQuery = {}): AsyncGenerator<TListFindingsResponse> {
    const { cursor: start, ...filters } = query;
    return paginate((cursor) => this.listFindings({ ...filters, cursor }), start);
  }

  /** Every finding matching the filters, fetched page by page as the loop asks for more. */
  iterateFindings(query: TFindingsQuery = {}): AsyncGenerator<TFinding> {
    return paginateItems(this.listFindingPages(query));
  }

  getFindingDetail(findingId: string): Promise<TFindingDetail> {
    return this.request('GET', `/api/v2/findings/${encodeURIComponent(findingId)}/detail`);
  }
}
