// UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation time, which
// keeps btree inserts at the right edge and lets keyset pagination order by id alone. Prisma
// fills ids in with @default(uuid(7)); raw-SQL paths (bulk upserts, audit appends) use this.
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

// One getrandom call per 256 ids, not one per id: a bulk ingest makes one id per finding, and a
// syscall each was an eighth of its CPU time (Node pools randomUUID's entropy the same way).
// The id is spelled straight from the pool's bytes: no Buffer per id (bench/README.md, ingest).
const POOL_IDS = 256;
const pool = Buffer.alloc(16 * POOL_IDS);
let poolAt = pool.length;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function uuidv7(now: number = Date.now()): string {
  return spell(nextId(now));
}

/** A new UUIDv7 written as its 16 bytes into `target` at `offset` (binary COPY); returns its text. */
export function uuidv7Into(target: Buffer, offset: number, now: number = Date.now()): string {
  const at = nextId(now);
  pool.copy(target, offset, at, at + 16);
  return spell(at);
}

/** Lays out the next id in the pool, in place; returns where its 16 bytes start. */
function nextId(now: number): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += 16;
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
    sequence = pool[at + 6] & 0x07; // random start, leaving room to count up
  }
  pool.writeUInt16BE(Math.floor(now / 0x1_0000_0000), at);
  pool.writeUInt32BE(now >>> 0, at + 2);
  pool[at + 6] = 0x70 | (sequence >> 8);
  pool[at + 7] = sequence & 0xff;
  pool[at + 8] = 0x80 | (pool[at + 8] & 0x3f);
  return at;
}

function spell(at: number): string {
  const p = pool;
  return (
    `${HEX[p[at]]}${HEX[p[at + 1]]}${HEX[p[at + 2]]}${HEX[p[at + 3]]}-${HEX[p[at + 4]]}${HEX[p[at + 5]]}-${HEX[p[at + 6]]}${HEX[p[at + 7]]}-` +
    `${HEX[p[at + 8]]}${HEX[p[at + 9]]}-${HEX[p[at + 10]]}${HEX[p[at + 11]]}${HEX[p[at + 12]]}${HEX[p[at + 13]]}${HEX[p[at + 14]]}${HEX[p[at + 15]]}`
  );
}
