// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation time, which
// keeps btree inserts at the right edge and lets keyset pagination order by id alone. Prisma
// fills ids in with @default(uuid(7)); raw-SQL paths (bulk upserts, audit appends) use this.
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

// One getrandom call per 256 ids, not one per id: a bulk ingest makes one id per finding, and a
// syscall each was an eighth of its CPU time (Node pools randomUUID's entropy the same way).
const POOL_IDS = 256;
const pool = Buffer.alloc(16 * POOL_IDS);
let poolAt = pool.length;

function randomSixteen(): Buffer {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  // A copy: the pool is refilled under it later.
  const bytes = Buffer.from(pool.subarray(poolAt, poolAt + 16));
  poolAt += 16;
  return bytes;
}

export function uuidv7(now: number = Date.now()): string {
  const bytes = randomSixteen();
  // Within one millisecond a 12-bit counter in rand_a keeps ids from this process increasing
  // (RFC 9562 section 6.2, method 1), so two rows inserted back to back keep their order.
  if (now <= lastMs) {
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
    now = lastMs;
  } else {
    lastMs = now;
    sequence = bytes[6] & 0x07; // random start, leaving room to count up
  }
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
