import { PalisadeApiError } from '@palisade/sdk';
import { CliError } from '../cli-error';
import { exitCodeFor, formatError } from './error.format';

describe('formatError', () => {
  it('prints an API refusal as code: message (hint) [correlation id]', () => {
    const error = new PalisadeApiError(403, {
      error_code: 'forbidden',
      message: 'Needs scans:create',
      hint: 'Ask an administrator.',
      correlation_id: 'c0ffee',
    });
    expect(formatError(error)).toBe('forbidden: Needs scans:create (Ask an administrator.) [c0ffee]');
    expect(exitCodeFor(error)).toBe(1);
  });

  it('adds the 422 fields its message does not already name', () => {
    const error = new PalisadeApiError(422, {
      error_code: 'validation_failed',
      message: 'Invalid request: body.tools: too many',
      hint: 'Correct the named field.',
      correlation_id: 'c1',
      errors: [
        { field: 'body.tools', issue: 'too many' },
        { field: 'body.deadline_seconds', issue: 'too small' },
      ],
    });
    expect(formatError(error)).toBe(
      'validation_failed: Invalid request: body.tools: too many (body.deadline_seconds: too small) (Correct the named field.) [c1]',
    );
  });

  it('names a bare 500 by its status, keeping its correlation id', () => {
    expect(formatError(new PalisadeApiError(500, { correlation_id: 'abc' }))).toBe('http_500: HTTP 500 [abc]');
  });

  it('prints a CliError as is, with its exit code', () => {
    const error = new CliError('expired_token: too late', 2);
    expect(formatError(error)).toBe('expired_token: too late');
    expect(exitCodeFor(error)).toBe(2);
  });

  it('says when the service cannot be reached at all', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(formatError(error)).toMatch(/^network: connect ECONNREFUSED 127\.0\.0\.1:1 \(check --base-url/);
  });
});
