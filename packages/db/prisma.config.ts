// Prisma CLI configuration. The JavaScript schema engine (engine: 'js') talks to PostgreSQL
// through the pg driver adapter, so `generate`, `migrate diff` and `migrate deploy` need no
// engine binary and work offline.
import path from 'node:path';
import pg from 'pg';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The CLI must be able to resolve env("DATABASE_URL") in schema.prisma even for `generate`
// (which never connects): when it cannot, Prisma 6 falls back to the library engine and tries
// to download it. The default is the local development database.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/palisade';

// Version skew shim (schema engine 6.19, @prisma/adapter-pg 7.x, which reads `name` columns that
// 6.19's own adapter refuses). The engine's catalog queries also return PostgreSQL's one-byte
// "char" type (oid 18, e.g. pg_constraint.contype), which adapter 7.x refuses to map and the
// engine wants as a Character column. So: pg reports such fields as text, we remember their
// positions against the row array (which the adapter passes through untouched), and the
// adapter's result gets Character for them. Without this `migrate diff --from-migrations` fails.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils
const charColumnsByRows = new WeakMap<object, number[]>();

type TPgResult = { fields?: Array<{ dataTypeID: number }>; rows?: unknown[] } | undefined;

function relabelCharColumns<T extends TPgResult>(res: T): T {
  const positions: number[] = [];
  (res?.fields ?? []).forEach((field, i) => {
    if (field.dataTypeID === PG_CHAR_OID) {
      field.dataTypeID = PG_TEXT_OID;
      positions.push(i);
    }
  });
  if (positions.length > 0 && res?.rows) charColumnsByRows.set(res.rows, positions);
  return res;
}

// pg-pool calls client.query with a callback; other callers use the promise form.
class CatalogFriendlyClient extends pg.Client {
  override query(...args: unknown[]): never {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (err: unknown, res: TPgResult) => last(err, relabelCharColumns(res));
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      return (result as Promise<TPgResult>).then(relabelCharColumns) as never;
    }
    return result as never;
  }
}

type TQueryable = { queryRaw(q: unknown): Promise<{ columnTypes: number[]; rows: unknown[] }> };

function restoreCharacterColumns<T extends TQueryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (q) => {
    const res = await queryRaw(q);
    for (const i of charColumnsByRows.get(res.rows) ?? []) res.columnTypes[i] = COLUMN_TYPE_CHARACTER;
    return res;
  };
  return queryable;
}

function makeAdapterFactory(): PrismaPg {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4, Client: CatalogFriendlyClient });
  const factory = new PrismaPg(pool);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = restoreCharacterColumns(await connect());
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => restoreCharacterColumns(await startTransaction(...args));
    return adapter;
  };
  return factory;
}

export default defineConfig({
  experimental: { adapter: true },
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  engine: 'js',
  adapter: async () => makeAdapterFactory(),
});
