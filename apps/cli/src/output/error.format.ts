import { PalisadeApiError } from '@palisade/sdk';
import { CliError } from '../cli-error';

// Errors Node raises when the service cannot be reached at all.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * One line for the terminal. An API refusal reads `error_code: message (hint) [correlation id]`,
 * the correlation id being what support needs to find the request in the logs.
 */
export function formatError(error: unknown): string {
  if (error instanceof PalisadeApiError) return formatApiError(error);
  if (error instanceof CliError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && NETWORK_CODES.has(code)) {
    return `network: ${message || code} (check --base-url or PALISADE_URL, and that the service is running)`;
  }
  return `error: ${message}`;
}

function formatApiError(error: PalisadeApiError): string {
  const { body } = error;
  // A bare 500 carries only its correlation id, already shown at the end of the line.
  const message = body.message ?? `HTTP ${error.status}`;
  // A 422 lists each offending field; the ones its message does not already name are added.
  const unnamed = (body.errors ?? []).filter((issue) => !message.includes(issue.field));
  const issues = unnamed.length ? ` (${unnamed.map((issue) => `${issue.field}: ${issue.issue}`).join('; ')})` : '';
  const hint = body.hint ? ` (${body.hint})` : '';
  const correlation = body.correlation_id ? ` [${body.correlation_id}]` : '';
  return `${error.errorCode}: ${message}${issues}${hint}${correlation}`;
}

/** The exit status for an error that ended a command. */
export function exitCodeFor(error: unknown): number {
  return error instanceof CliError ? error.exitCode : 1;
}
