import type { User } from '../generated/prisma/client';
import type { TDbClient } from '../prisma-types';

export type TCreateUser = {
  email: string;
  displayName: string;
  passwordHash?: string | null;
  isPlatformAdmin?: boolean;
  id?: string;
};

/** Emails are compared case-insensitively: stored and looked up lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Users are global (one person, many organizations); tenant access goes through memberships.
export function makeUserRepo(db: TDbClient) {
  return {
    create(input: TCreateUser): Promise<User> {
      return db.user.create({
        data: {
          id: input.id,
          email: normalizeEmail(input.email),
          displayName: input.displayName,
          passwordHash: input.passwordHash ?? null,
          isPlatformAdmin: input.isPlatformAdmin ?? false,
        },
      });
    },
    byEmail(email: string): Promise<User | null> {
      return db.user.findUnique({ where: { email: normalizeEmail(email) } });
    },
    byId(userId: string): Promise<User | null> {
      return db.user.findUnique({ where: { id: userId } });
    },
    setPasswordHash(userId: string, passwordHash: string): Promise<User> {
      return db.user.update({ where: { id: userId }, data: { passwordHash } });
    },
  };
}

export type UserRepo = ReturnType<typeof makeUserRepo>;
