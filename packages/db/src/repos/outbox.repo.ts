// Transactional outbox. Rows are written in the same transaction as the change they announce
// (appendOutboxRows with the caller's transaction); the outbox-dispatch job publishes each row
// and stamps dispatched_at, and a sweeper re-enqueues rows that were never dispatched.
import type { Outbox, Prisma } from '../generated/prisma/client';
import { uuidv7 } from '../ids';
import type { TDbClient } from '../prisma-types';
import { sqlExecutor, type TSqlSource } from './scan-sql';

type TOutboxEventObject = {
  /** null: a platform-level event, published to no tenant stream. */
  orgId: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
};

/** An outbox row to write: its payload as an object, or as the JSON text of one when the caller has that already. */
export type TOutboxEvent = TOutboxEventObject | (Omit<TOutboxEventObject, 'payload'> & { payloadJson: string });

/** Inserts the rows inside the caller's transaction (Prisma transaction or pg client); returns their ids. */
export async function appendOutboxRows(source: TSqlSource, events: readonly TOutboxEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const sql = sqlExecutor(source);
  const ids = events.map(() => uuidv7());
  const values: unknown[] = [];
  const rows = events.map((event, i) => {
    values.push(ids[i], event.orgId, event.topic, event.event, 'payloadJson' in event ? event.payloadJson : JSON.stringify(event.payload));
    const p = i * 5;
    // ::json, as the column is: a ::jsonb parameter was parsed into jsonb and printed back to
    // text for the column, ~0.3 s of database time for the 19 MB of events of a large report.
    return `($${p + 1}::uuid, $${p + 2}::uuid, $${p + 3}, $${p + 4}, $${p + 5}::json)`;
  });
  await sql.query(`INSERT INTO outbox (id, org_id, topic, event, payload) VALUES ${rows.join(', ')}`, values);
  return ids;
}

export function makeOutboxRepo(db: TDbClient) {
  return {
    async append(event: TOutboxEventObject): Promise<string> {
      const row = await db.outbox.create({
        data: { id: uuidv7(), orgId: event.orgId, topic: event.topic, event: event.event, payload: event.payload as Prisma.InputJsonValue },
        select: { id: true },
      });
      return row.id;
    },
    byId(id: string): Promise<Outbox | null> {
      return db.outbox.findUnique({ where: { id } });
    },
    /** Stamps the row dispatched; false when it already was. */
    async markDispatched(id: string, at: Date = new Date()): Promise<boolean> {
      const { count } = await db.outbox.updateMany({ where: { id, dispatchedAt: null }, data: { dispatchedAt: at } });
      return count === 1;
    },
    /** Oldest undispatched rows created before `olderThan` (the sweeper leaves fresh rows to their own job). */
    undispatched(limit: number, olderThan: Date = new Date()): Promise<Array<Pick<Outbox, 'id' | 'orgId' | 'createdAt'>>> {
      return db.outbox.findMany({
        where: { dispatchedAt: null, createdAt: { lt: olderThan } },
        orderBy: { createdAt: 'asc' },
        take: limit,
        select: { id: true, orgId: true, createdAt: true },
      });
    },
  };
}

export type OutboxRepo = ReturnType<typeof makeOutboxRepo>;
