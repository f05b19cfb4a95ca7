// The public clients allowed to start a device authorization (RFC 8628 section 3.1). They are
// public clients (RFC 6749 section 2.1): they hold no secret, so the client id only names who
// asks; the human who approves is the real check. Kept in code: a new client is a release.
import { AppError } from '../errors/app-error';

export interface TDeviceScope {
  name: string;
  /** Shown on the approval page, so the person approving knows what they grant. */
  description: string;
}

/**
 * The scopes a device-flow grant can carry. `api` is the token itself (the user's own
 * role-based access in each organization); `offline_access` adds a refresh token, so the
 * device stays signed in past the access token's 15 minutes.
 */
export const DEVICE_SCOPES = {
  api: { name: 'api', description: 'Act as you in the organizations you belong to, with your role there' },
  offline_access: { name: 'offline_access', description: 'Stay signed in on this device (a refresh token)' },
} as const satisfies Record<string, TDeviceScope>;
export type TDeviceScopeName = keyof typeof DEVICE_SCOPES;

export interface TDeviceClient {
  clientId: string;
  name: string;
  allowedScopes: readonly TDeviceScopeName[];
  /** Granted when the client asks for no scope. */
  defaultScopes: readonly TDeviceScopeName[];
}

export const DEVICE_CLIENTS: Readonly<Record<string, TDeviceClient>> = {
  'palisade-cli': {
    clientId: 'palisade-cli',
    name: 'Palisade CLI',
    allowedScopes: ['api', 'offline_access'],
    defaultScopes: ['api', 'offline_access'],
  },
};

export function findDeviceClient(clientId: string): TDeviceClient | undefined {
  return Object.hasOwn(DEVICE_CLIENTS, clientId) ? DEVICE_CLIENTS[clientId] : undefined;
}

/** The registered client, or the RFC 6749 `invalid_client` refusal. */
export function requireDeviceClient(clientId: string): TDeviceClient {
  const client = findDeviceClient(clientId);
  if (!client) {
    throw new AppError('invalid_client', {
      message: `Unknown client_id "${clientId.slice(0, 64)}".`,
      extra: oauthError('invalid_client', 'The client is not registered for the device flow.'),
    });
  }
  return client;
}

/**
 * The scope string (space-separated, RFC 6749 section 3.3) resolved against what the client may
 * ask for: duplicates collapse, order follows DEVICE_SCOPES, an unknown or disallowed scope is
 * `invalid_scope`.
 */
export function resolveDeviceScopes(client: TDeviceClient, requested: string | undefined): TDeviceScopeName[] {
  const names = (requested ?? '').split(' ').filter(Boolean);
  if (names.length === 0) return [...client.defaultScopes];
  const refused = names.filter((name) => !(client.allowedScopes as readonly string[]).includes(name));
  if (refused.length) {
    throw new AppError('invalid_scope', {
      message: `The client may not ask for: ${refused.join(', ').slice(0, 200)}.`,
      hint: `Ask for some of: ${client.allowedScopes.join(' ')}.`,
      extra: oauthError('invalid_scope', 'The requested scope is unknown or not allowed for this client.'),
    });
  }
  return (Object.keys(DEVICE_SCOPES) as TDeviceScopeName[]).filter((name) => names.includes(name));
}

/** The RFC 6749 section 5.2 members that go beside the structured error fields. */
export function oauthError(error: string, description: string): { error: string; error_description: string } {
  return { error, error_description: description };
}
