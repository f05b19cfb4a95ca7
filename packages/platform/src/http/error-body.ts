import type { z } from 'zod';
import type { TErrorBody, TFieldIssue } from '@palisade/contracts';
import { AppError } from '@palisade/domain';

export function toErrorBody(error: AppError, correlationId: string): TErrorBody & Record<string, unknown> {
  const body: TErrorBody & Record<string, unknown> = {
    ...error.extra,
    error_code: error.code,
    category: error.category,
    message: error.message,
    hint: error.hint,
    correlation_id: correlationId,
    retryable: error.retryable,
  };
  if (error.errors?.length) {
    body.field = error.errors[0].field;
    body.errors = error.errors;
  }
  return body;
}

/**
 * Turns zod issues into field paths a client can act on: `body.target.url`,
 * `query.org_id` for an unknown query parameter, `headers.x-organization-id`.
 * An unknown key is named itself, not its parent object.
 */
export function fieldIssues(section: string, issues: readonly z.core.$ZodIssue[]): TFieldIssue[] {
  const out: TFieldIssue[] = [];
  for (const issue of issues) {
    const base = [section, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: [...base, key].join('.'), issue: 'unknown field' });
    } else {
      out.push({ field: base.join('.'), issue: issue.message });
    }
  }
  return out;
}

export function validationError(errors: TFieldIssue[], { oauth = false }: { oauth?: boolean } = {}): AppError {
  const first = errors[0];
  const message = first ? `Invalid request: ${first.field}: ${first.issue}.` : 'Invalid request.';
  return new AppError('validation_failed', {
    message,
    errors,
    // OAuth endpoints also speak RFC 6749 section 5.2, so that client libraries read the refusal.
    ...(oauth ? { extra: { error: 'invalid_request', error_description: message } } : {}),
  });
}
