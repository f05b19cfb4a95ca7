import { AppError, callbackTokenMatches, isTerminalScan, isTerminalTool } from '@palisade/domain';
import type { TCallbackTarget, TCallbackTool } from '@palisade/db';

/**
 * Verifies a per-(scan, tool) credential. Every tool of the scan is compared in constant time
 * (a scan has a handful), so the answer says which refusal applies without a timing signal
 * about the stored hashes:
 *   no token, unknown scan, no matching tool  → 401 invalid_callback_credential
 *   the token of another tool of this scan     → 403, or 404 when the path names no tool of the scan
 *   past the tool deadline                     → 401 callback_credential_expired
 */
export function verifyCallbackCredential(
  target: TCallbackTarget | null,
  pathTool: string,
  token: string | undefined,
  now: Date = new Date(),
): TCallbackTool {
  if (!token) {
    throw new AppError('invalid_callback_credential', { message: 'This route needs the callback token of the scan tool as a Bearer token.' });
  }
  const matches = (target?.tools ?? []).filter((tool) => callbackTokenMatches(token, tool.callbackTokenHash));
  const matched = matches[0];
  if (!target || !matched) {
    throw new AppError('invalid_callback_credential', { message: 'The callback token is not valid for this scan.' });
  }
  if (matched.tool !== pathTool) {
    if (target.tools.some((tool) => tool.tool === pathTool)) {
      throw new AppError('forbidden', { message: `This callback token belongs to the tool ${matched.tool}, not ${pathTool}.` });
    }
    throw new AppError('not_found', { message: `The scan has no tool named ${pathTool}.`, hint: 'Post the report to the tool named when the scan was created.' });
  }
  if (matched.deadlineAt && matched.deadlineAt.getTime() <= now.getTime()) {
    throw new AppError('callback_credential_expired', { message: `The callback token expired at the tool deadline (${matched.deadlineAt.toISOString()}).` });
  }
  return matched;
}

/** A tool that has ended takes no more reports (a replay is checked before this). */
export function assertToolOpen(target: TCallbackTarget, tool: TCallbackTool): void {
  if (!isTerminalTool(tool.status)) {
    if (isTerminalScan(target.status)) throw new AppError('scan_finished', { message: `The scan has already ended (${target.status}).` });
    return;
  }
  if (tool.status !== 'succeeded' && isTerminalScan(target.status)) {
    throw new AppError('scan_finished', { message: `The scan has already ended (${target.status}); the tool ${tool.tool} ended ${tool.status}.` });
  }
  throw new AppError('tool_already_reported', { message: `The tool ${tool.tool} has already ended (${tool.status}).` });
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Idempotency-Key: 1 to 255 visible ASCII characters, or absent. */
export function parseIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw new AppError('validation_failed', {
      message: 'Invalid request: headers.idempotency-key: must be 1 to 255 visible ASCII characters.',
      errors: [{ field: 'headers.idempotency-key', issue: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  return header;
}
