// The scan lifecycle writes with plain SQL through this one narrow interface, so the same code
// runs inside a Prisma interactive transaction (write plane, worker) and inside a pg client
// transaction (the callback plane's bulk ingest), joining whichever transaction the caller holds.
import type { Prisma, PrismaClient } from '../generated/prisma/client';

export interface TSqlExecutor {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** A Prisma client or transaction, a pg client (PoolClient), or an executor already. */
export type TSqlSource = PrismaClient | Prisma.TransactionClient | TSqlExecutor;

export function sqlExecutor(source: TSqlSource): TSqlExecutor {
  if ('$queryRawUnsafe' in source) {
    const prisma = source as Prisma.TransactionClient;
    return {
      async query<R>(text: string, values: unknown[] = []) {
        const rows = await prisma.$queryRawUnsafe<R[]>(text, ...values);
        return { rows: Array.isArray(rows) ? rows : [] };
      },
    };
  }
  return source as TSqlExecutor;
}
