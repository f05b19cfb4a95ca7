import type { RefreshToken } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TIssueRefreshToken = {
  userId: string;
  /** The rotation family: the first token of a sign-in starts one, rotations inherit it. */
  familyId: string;
  /** sha256 of the token; the token itself is never stored. */
  tokenHash: string;
  expiresAt: Date;
  id?: string;
};

// Rotation with reuse detection: a token is exchanged once (markUsed); presenting a used token
// again means it leaked, and the caller revokes the whole family.
export function makeRefreshTokenRepo(db: TDbClient) {
  return {
    issue(input: TIssueRefreshToken): Promise<RefreshToken> {
      return db.refreshToken.create({
        data: {
          id: input.id,
          userId: input.userId,
          familyId: input.familyId,
          tokenHash: input.tokenHash,
          expiresAt: input.expiresAt,
        },
      });
    },
    findByHash(tokenHash: string): Promise<RefreshToken | null> {
      return db.refreshToken.findUnique({ where: { tokenHash } });
    },
    /**
     * Marks the token used (and names its successor) only if it is still unused and not revoked.
     * False means another request got there first: treat it as reuse.
     */
    async markUsed(tokenId: string, replacedById: string | null = null, at: Date = new Date()): Promise<boolean> {
      const { count } = await db.refreshToken.updateMany({
        where: { id: tokenId, usedAt: null, revokedAt: null },
        data: { usedAt: at, replacedById },
      });
      return count === 1;
    },
    /** Revokes every not-yet-revoked token of the family; returns how many. */
    async revokeFamily(familyId: string, at: Date = new Date()): Promise<number> {
      const { count } = await db.refreshToken.updateMany({
        where: { familyId, revokedAt: null },
        data: { revokedAt: at },
      });
      return count;
    },
  };
}

export type RefreshTokenRepo = ReturnType<typeof makeRefreshTokenRepo>;
