import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { TAccessTokenResponse, TErrorBody, TJwks, TMeResponse } from '@palisade/contracts';

export interface TClientOptions {
  baseUrl: string;
  accessToken?: string;
  organizationId?: string;
  timeoutMs?: number;
}

/** A refusal from the API, carrying the spec's structured body. */
export class PalisadeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<TErrorBody> & { correlation_id?: string },
  ) {
    super(body.message ?? `HTTP ${status}${body.correlation_id ? ` (correlation id ${body.correlation_id})` : ''}`);
    this.name = 'PalisadeApiError';
  }
}

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

  withToken(accessToken: string, organizationId = this.options.organizationId): PalisadeClient {
    return new PalisadeClient({ ...this.options, accessToken, organizationId });
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await this.http.request({
      method,
      url: path,
      data: body,
      headers: {
        ...(this.options.accessToken ? { Authorization: `Bearer ${this.options.accessToken}` } : {}),
        ...(this.options.organizationId ? { 'X-Organization-ID': this.options.organizationId } : {}),
        ...headers,
      },
    });
    return unwrap<T>(response);
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
}

function unwrap<T>(response: AxiosResponse): T {
  if (response.status >= 200 && response.status < 300) return response.data as T;
  const body = typeof response.data === 'object' && response.data !== null ? response.data : { message: String(response.data) };
  throw new PalisadeApiError(response.status, body);
}
