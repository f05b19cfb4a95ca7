import type { Command } from 'commander';
import { PalisadeClient } from '@palisade/sdk';
import { readConfig, type TCliConfig } from './config-store';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** The options every command inherits from the program. */
export interface TGlobalOptions {
  baseUrl?: string;
  org?: string;
}

export function globalOptions(command: Command): TGlobalOptions {
  return command.optsWithGlobals<TGlobalOptions>();
}

export function resolveBaseUrl(options: TGlobalOptions, config: TCliConfig): string {
  return options.baseUrl ?? process.env.PALISADE_URL ?? config.base_url ?? DEFAULT_BASE_URL;
}

/**
 * A client for the command's base URL. `anonymous` leaves out the saved token and organization:
 * signing in must not send a stale (perhaps expired) token along to the public auth routes.
 */
export async function clientFor(command: Command, { anonymous = false } = {}): Promise<PalisadeClient> {
  const options = globalOptions(command);
  const config = await readConfig();
  const baseUrl = resolveBaseUrl(options, config);
  if (anonymous) return new PalisadeClient({ baseUrl });
  return new PalisadeClient({
    baseUrl,
    accessToken: process.env.PALISADE_TOKEN ?? config.access_token,
    organizationId: options.org ?? config.organization_id,
  });
}
