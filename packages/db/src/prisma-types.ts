// The generated client's types and enums, re-exported so callers import only '@palisade/db'.
import type { Prisma, PrismaClient } from './generated/prisma/client';

export * from './generated/prisma/client';

/** A client or an interactive transaction: what every repository accepts. */
export type TDbClient = PrismaClient | Prisma.TransactionClient;
