import type { PalisadeClient } from '@palisade/sdk';
import type { TMeResponse } from '@palisade/contracts';
import { readConfig, writeConfig } from './config-store';

export interface TSavedSession {
  organizationId?: string;
  /** Set when the asked-for organization is not one of the principal's (it is saved anyway). */
  warning?: string;
}

/**
 * The organization later commands act in: the one asked for, else the saved one if the new
 * principal belongs to it (signing in again keeps the choice), else the principal's first.
 */
export function chooseOrganization(me: TMeResponse, requested: string | undefined, saved: string | undefined): TSavedSession {
  const memberOf = new Set(me.memberships.map((membership) => membership.organization_id));
  if (requested) {
    return memberOf.has(requested)
      ? { organizationId: requested }
      : { organizationId: requested, warning: `you are not a member of organization ${requested}` };
  }
  if (saved && memberOf.has(saved)) return { organizationId: saved };
  return { organizationId: me.memberships[0]?.organization_id };
}

/** Saves a fresh access token, with the base URL it is valid for and the organization to act in. */
export async function saveSession(
  api: PalisadeClient,
  accessToken: string,
  me: TMeResponse,
  requestedOrg?: string,
): Promise<TSavedSession> {
  const config = await readConfig();
  const session = chooseOrganization(me, requestedOrg, config.organization_id);
  await writeConfig({
    ...config,
    base_url: api.http.defaults.baseURL,
    access_token: accessToken,
    organization_id: session.organizationId,
  });
  return session;
}
