import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { STAGING_COLUMNS } from './ingest-encoding';

/**
 * The staging half of report ingest. Findings arrive as batches of COPY tuples (ingest-encoding)
 * while the body streams in: each batch is COPYed into a temporary table and merged into
 * `findings` (ingest-merge.repo) inside the one ingest transaction, while the next batch is
 * being parsed — the parser (Node) and the index maintenance (PostgreSQL) run side by side.
 * Nothing is visible to anyone until COMMIT; a parse error, a truncated body or a killed process
 * rolls the whole transaction back, temp table included, so a bad report writes nothing.
 */
export const STAGING_TABLE = 'ingest_staging';

export async function createStagingTable(client: pg.PoolClient): Promise<void> {
  // ON COMMIT DROP: the table lives exactly as long as the transaction; no cleanup path needed.
  await client.query(
    `CREATE TEMP TABLE ${STAGING_TABLE} (
       seq integer NOT NULL, fingerprint text NOT NULL, severity text NOT NULL, title text NOT NULL,
       description text, rule_id text NOT NULL, rule_name text, cwe text[] NOT NULL, cve text[] NOT NULL,
       location json, evidence json NOT NULL, suppression jsonb
     ) ON COMMIT DROP`,
  );
}

/** COPYs one batch of encoded rows into the (empty) staging table. */
export async function copyStagingBatch(client: pg.PoolClient, rows: readonly Buffer[]): Promise<void> {
  await copyRows(client, `COPY ${STAGING_TABLE} (${STAGING_COLUMNS}) FROM STDIN (FORMAT binary)`, rows);
}

/**
 * Runs a `COPY … FROM STDIN (FORMAT binary)` statement with a stream from CopyBinaryRows.take().
 * Once it has resolved, the chunks' bytes are no longer needed (the server has confirmed the
 * COPY), so the caller may reuse them; after a failure they may still be queued on the connection.
 */
export async function copyRows(client: pg.PoolClient, statement: string, rows: readonly Buffer[]): Promise<void> {
  const stream = client.query(copyFrom(statement));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  for (const chunk of rows) {
    if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), finished]);
  }
  stream.end();
  await finished;
}
