import type { AxiosResponse } from 'axios';
import type { TDeviceTokenResponse } from '@palisade/contracts';
import { toApiError } from './api-error';

/** RFC 8628 section 3.4. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The token endpoint's answers that are part of polling (RFC 8628 section 3.5), not failures of the call. */
export const DEVICE_POLL_ERRORS = ['authorization_pending', 'slow_down', 'access_denied', 'expired_token'] as const;
export type TDevicePollError = (typeof DEVICE_POLL_ERRORS)[number];

export type TDevicePollResult =
  | { ok: true; tokens: TDeviceTokenResponse }
  | {
      ok: false;
      error: TDevicePollError;
      error_description?: string;
      /** The interval the server now expects (it grows on slow_down), when it says so. */
      interval?: number;
    };

/** Sorts a token-endpoint answer into tokens, a polling error, or (thrown) a real failure. */
export function readDevicePollResponse(response: AxiosResponse): TDevicePollResult {
  if (response.status === 200) return { ok: true, tokens: response.data as TDeviceTokenResponse };
  const body = (typeof response.data === 'object' && response.data !== null ? response.data : {}) as Record<string, unknown>;
  const error = body.error;
  if (response.status === 400 && typeof error === 'string' && (DEVICE_POLL_ERRORS as readonly string[]).includes(error)) {
    return {
      ok: false,
      error: error as TDevicePollError,
      ...(typeof body.error_description === 'string' ? { error_description: body.error_description } : {}),
      ...(typeof body.interval === 'number' ? { interval: body.interval } : {}),
    };
  }
  // invalid_grant, invalid_client, unsupported_grant_type, 5xx...: the flow cannot go on.
  throw toApiError(response);
}
