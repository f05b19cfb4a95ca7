import { z } from 'zod';
import { AppError } from '@palisade/domain';
import { fieldIssues, toErrorBody, validationError } from './error-body';

describe('error bodies', () => {
  it('names an unknown key itself, not its parent object', () => {
    const schema = z.object({ target: z.object({ url: z.string() }).strict() }).strict();
    const result = schema.safeParse({ target: { url: 'x', branch: 'main' }, extra: 1 });
    const issues = fieldIssues('body', result.error!.issues);
    expect(issues.map((issue) => issue.field).sort()).toEqual(['body.extra', 'body.target.branch']);
    expect(issues.every((issue) => issue.issue === 'unknown field')).toBe(true);
  });

  it('gives a 422 the first offending field and the full list', () => {
    const error = validationError([
      { field: 'body.email', issue: 'Invalid email address' },
      { field: 'body.password', issue: 'Required' },
    ]);
    const body = toErrorBody(error, 'abc');
    expect(error.status).toBe(422);
    expect(body).toEqual({
      error_code: 'validation_failed',
      category: 'config',
      message: 'Invalid request: body.email: Invalid email address.',
      hint: expect.any(String),
      correlation_id: 'abc',
      retryable: false,
      field: 'body.email',
      errors: [
        { field: 'body.email', issue: 'Invalid email address' },
        { field: 'body.password', issue: 'Required' },
      ],
    });
  });

  it('keeps the spec fields authoritative over extra members', () => {
    const error = new AppError('rate_limited', { extra: { error_code: 'spoofed', error: 'slow_down' } });
    expect(toErrorBody(error, 'id')).toMatchObject({ error_code: 'rate_limited', error: 'slow_down', retryable: true, category: 'network' });
  });
});
