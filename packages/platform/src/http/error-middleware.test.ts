import { fromHttpError } from './error-middleware';

/** What http-errors builds: a 4xx status with expose true, and body-parser's `type`. */
function httpError(status: number, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: status < 500, ...extra });
}

describe('errors a client provoked, raised by Express and body-parser', () => {
  it('maps body-parser types to their precise refusals', () => {
    expect(fromHttpError(httpError(400, 'Unexpected token', { type: 'entity.parse.failed' }))).toMatchObject({ code: 'malformed_json', status: 400 });
    expect(fromHttpError(httpError(413, 'too many parameters', { type: 'parameters.too.many' }))).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(fromHttpError(httpError(415, 'unsupported charset', { type: 'charset.unsupported' }))).toMatchObject({ code: 'unsupported_media_type' });
    expect(fromHttpError(httpError(400, 'request size did not match content length', { type: 'request.size.invalid' }))).toMatchObject({ code: 'bad_request' });
  });

  it('maps any other exposed 4xx by its status, keeping the status', () => {
    expect(fromHttpError(httpError(400, 'incorrect header check'))).toMatchObject({ code: 'bad_request', status: 400, message: expect.stringContaining('incorrect header check') });
    expect(fromHttpError(httpError(413, 'too big'))).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(fromHttpError(httpError(415, 'nope'))).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    expect(fromHttpError(httpError(418, 'teapot'))).toMatchObject({ code: 'bad_request', status: 418 });
    expect(fromHttpError({ statusCode: 431, expose: true })).toMatchObject({ code: 'request_header_too_large', status: 431 });
  });

  it('maps the router’s undecodable path parameter (a URIError with status 400 and no expose)', () => {
    const error = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400, statusCode: 400 });
    expect(fromHttpError(error)).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it('leaves everything else a crash: 5xx, a status nobody exposed, or no status at all', () => {
    expect(fromHttpError(httpError(500, 'boom'))).toBeUndefined();
    expect(fromHttpError(httpError(503, 'down', { expose: true }))).toBeUndefined();
    // An outbound call's failure (e.g. an HTTP client error carrying the upstream's 404) is ours, not the client's.
    expect(fromHttpError(Object.assign(new Error('Request failed with status code 404'), { status: 404 }))).toBeUndefined();
    expect(fromHttpError(new URIError('URI malformed'))).toBeUndefined();
    expect(fromHttpError(new Error('plain'))).toBeUndefined();
    expect(fromHttpError('a string')).toBeUndefined();
    expect(fromHttpError(undefined)).toBeUndefined();
  });
});
