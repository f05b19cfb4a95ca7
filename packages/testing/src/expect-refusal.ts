/** What an HTTP test client's response shows (supertest's Response has these). */
export interface TRefusalResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
}

/**
 * The spec's refusal body (Section 7), exactly: the status and error code asked for, every
 * structured field present, the correlation id the same as the response header, never a 500.
 * For use inside Jest tests (it uses Jest's global `expect`).
 */
export function expectRefusal(res: TRefusalResponse, status: number, errorCode: string): void {
  expect({ status: res.status, error_code: res.body.error_code }).toEqual({ status, error_code: errorCode });
  expect(res.body).toMatchObject({
    category: expect.stringMatching(/^(network|auth|config|timeout)$/),
    message: expect.any(String),
    hint: expect.any(String),
    correlation_id: res.headers['x-correlation-id'],
    retryable: false,
  });
}
