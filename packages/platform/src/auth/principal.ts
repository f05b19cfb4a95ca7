import type { TRole } from '@palisade/domain';

export const PRINCIPAL_KINDS = ['human', 'pipeline', 'service_account', 'scanner'] as const;
export type TPrincipalKind = (typeof PRINCIPAL_KINDS)[number];

/** Who is calling, as established from a verified token. */
export interface TPrincipal {
  kind: TPrincipalKind;
  /** The user id for humans; the pipeline, service-account or scan-tool id otherwise. */
  id: string;
  isPlatformAdmin: boolean;
  /** Set when the credential itself is bound to one organization (pipelines, service accounts). */
  orgId?: string;
  /** Explicit grants of non-human principals; humans get theirs from their role. */
  scopes?: readonly string[];
  /** The refresh-token family of a human session, when the token came from one. */
  sessionId?: string;
  tokenId?: string;
}

/** The organization a tenant-scoped call acts in, and the caller's role there. */
export interface TTenant {
  orgId: string;
  role: TRole | null;
}

/** Verifies a bearer token into a principal; throws AppError('unauthenticated') otherwise. */
export type TAuthenticate = (bearerToken: string) => Promise<TPrincipal>;
/** The caller's role in an organization, or null when not a member. */
export type TResolveMembership = (principal: TPrincipal, orgId: string) => Promise<TRole | null>;
