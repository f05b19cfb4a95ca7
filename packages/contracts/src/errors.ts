import { z } from 'zod';

/** Spec Section 7: the four error categories. */
export const ZErrorCategory = z.enum(['network', 'auth', 'config', 'timeout']);
export type TErrorCategory = z.infer<typeof ZErrorCategory>;

export const ZFieldIssue = z.object({ field: z.string(), issue: z.string() }).strict();
export type TFieldIssue = z.infer<typeof ZFieldIssue>;

/** Spec Section 7 structured body; a 422 adds `field` and `errors` (API.md). */
export const ZErrorBody = z
  .object({
    error_code: z.string(),
    category: ZErrorCategory,
    message: z.string(),
    hint: z.string(),
    correlation_id: z.string(),
    retryable: z.boolean(),
    field: z.string().optional(),
    errors: z.array(ZFieldIssue).optional(),
  })
  .strict();
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** A 500 says nothing but the correlation id (spec Section 7, rule 1). */
export const ZInternalErrorBody = z.object({ correlation_id: z.string() }).strict();

/**
 * The catalogue of stable error codes: status, category, retryable and a default hint.
 * One table for every plane; AppError(code) looks its code up here.
 */
export const ERROR_CATALOGUE = {
  validation_failed: { status: 422, category: 'config', retryable: false, hint: 'Correct the named field and send the request again.' },
  bad_request: { status: 400, category: 'config', retryable: false, hint: 'The request could not be read (a malformed path, header, encoding or body); correct it and send it again.' },
  request_header_too_large: { status: 431, category: 'config', retryable: false, hint: 'Send fewer or shorter headers and cookies.' },
  uri_too_long: { status: 414, category: 'config', retryable: false, hint: 'Shorten the path and query string; send long input in a request body.' },
  request_timeout: { status: 408, category: 'timeout', retryable: true, hint: 'Send the whole request promptly; retry with backoff.' },
  malformed_json: { status: 400, category: 'config', retryable: false, hint: 'Send a well-formed JSON body with Content-Type: application/json.' },
  unsupported_media_type: { status: 415, category: 'config', retryable: false, hint: 'Send the body with one of the content types this route accepts.' },
  payload_too_large: { status: 413, category: 'config', retryable: false, hint: 'Split the request or send a smaller body.' },
  unauthenticated: { status: 401, category: 'auth', retryable: false, hint: 'Send a valid access token as "Authorization: Bearer <token>"; sign in again if it expired.' },
  invalid_credentials: { status: 401, category: 'auth', retryable: false, hint: 'Check the email and password.' },
  invalid_refresh_token: { status: 401, category: 'auth', retryable: false, hint: 'Sign in again to obtain a new session.' },
  forbidden: { status: 403, category: 'auth', retryable: false, hint: 'Ask an administrator of the organization for the needed role.' },
  not_a_member: { status: 403, category: 'auth', retryable: false, hint: 'Use an X-Organization-ID of an organization you belong to (see GET /api/v2/me).' },
  not_found: { status: 404, category: 'config', retryable: false, hint: 'Check the identifier and the X-Organization-ID header.' },
  route_not_found: { status: 404, category: 'config', retryable: false, hint: 'Check the method and path against the OpenAPI document.' },
  method_not_allowed: { status: 405, category: 'config', retryable: false, hint: 'Check the method against the OpenAPI document.' },
  conflict: { status: 409, category: 'config', retryable: false, hint: 'Reload the resource and retry with its current state.' },
  invalid_state_transition: { status: 409, category: 'config', retryable: false, hint: 'The resource is not in a state that allows this action.' },
  rate_limited: { status: 429, category: 'network', retryable: true, hint: 'Wait for the number of seconds in Retry-After, then retry.' },
  too_many_attempts: { status: 429, category: 'auth', retryable: true, hint: 'Wait for the number of seconds in Retry-After before trying again.' },
  service_unavailable: { status: 503, category: 'network', retryable: true, hint: 'Retry with backoff; the service is starting or shutting down.' },
  // scanner callbacks (callback plane)
  invalid_callback_credential: { status: 401, category: 'auth', retryable: false, hint: 'Send the callback token issued for this scan and tool as "Authorization: Bearer <token>".' },
  callback_credential_expired: { status: 401, category: 'auth', retryable: false, hint: 'The tool deadline has passed; start a new scan to report again.' },
  tool_already_reported: { status: 409, category: 'config', retryable: false, hint: 'Each tool reports once per scan; retry with the same Idempotency-Key to read the stored result.' },
  scan_finished: { status: 409, category: 'config', retryable: false, hint: 'The scan has ended; start a new scan to report again.' },
  idempotency_key_reused: { status: 409, category: 'config', retryable: false, hint: 'Use a new Idempotency-Key for a different body.' },
  invalid_report: { status: 422, category: 'config', retryable: false, hint: 'Send a complete, well-formed report in the format named by Content-Type (and X-Report-Format).' },
  upstream_timeout: { status: 504, category: 'timeout', retryable: true, hint: 'Retry with backoff.' },
  // device authorization grant (RFC 8628 section 3.5, RFC 6749 section 5.2): answered with HTTP 400
  // (invalid_client 401) and the RFC's `error` member beside these fields, so OAuth libraries read them.
  authorization_pending: { status: 400, category: 'auth', retryable: true, hint: 'Approve the request on the verification page, then keep polling at the given interval.' },
  slow_down: { status: 400, category: 'auth', retryable: true, hint: 'Poll less often: add 5 seconds to the interval and keep it for later requests.' },
  access_denied: { status: 400, category: 'auth', retryable: false, hint: 'The request was denied on the verification page; start a new device authorization.' },
  expired_token: { status: 400, category: 'auth', retryable: false, hint: 'The device code expired; start a new device authorization.' },
  invalid_grant: { status: 400, category: 'auth', retryable: false, hint: 'Use the device_code from the latest device authorization, with the client_id that started it; a code is redeemed once.' },
  invalid_client: { status: 401, category: 'auth', retryable: false, hint: 'Use a registered client_id (the Palisade CLI is "palisade-cli").' },
  unsupported_grant_type: { status: 400, category: 'config', retryable: false, hint: 'Send grant_type=urn:ietf:params:oauth:grant-type:device_code.' },
  invalid_scope: { status: 400, category: 'config', retryable: false, hint: 'Ask only for scopes the client is allowed.' },
  invalid_user_code: { status: 404, category: 'config', retryable: false, hint: 'Check the code shown on your device; codes expire after a few minutes.' },
  // pipeline OIDC exchange (write plane): each refusal carries its own message and hint
  invalid_pipeline_token: { status: 401, category: 'auth', retryable: false, hint: 'Present a fresh OIDC token from your CI provider that a trust policy of your organization accepts.' },
  issuer_unavailable: { status: 503, category: 'network', retryable: true, hint: 'The CI provider\'s signing keys could not be fetched; retry after the number of seconds in Retry-After.' },
} as const satisfies Record<string, { status: number; category: TErrorCategory; retryable: boolean; hint: string }>;

export type TErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * A 403 says who can lift it. The catalogue's `forbidden` hint is the common case (a member
 * whose role lacks the permission); these name the other ones.
 */
export const FORBIDDEN_HINTS = {
  role: ERROR_CATALOGUE.forbidden.hint,
  platform_admin: 'This route needs a platform administrator: sign in as one, or ask one to do it for you.',
  pipeline_scope: 'Widen the pipeline trust policy\'s scopes: an organization administrator registers the policy with the needed scope (POST /api/v2/ci/pipeline/trust-policies); then exchange a new token.',
  service_account_scope: 'Widen the service account\'s scopes: an organization administrator creates one with the needed scope (POST /api/v2/service-accounts) and revokes this one.',
  scanner_scope: 'A scanner callback credential only reports results for its scan; use a member\'s or service account\'s token for this.',
  human_only: 'A human must do this: sign in as a member whose role allows it; pipelines, service accounts and scanners never can, whatever their scopes.',
} as const;
