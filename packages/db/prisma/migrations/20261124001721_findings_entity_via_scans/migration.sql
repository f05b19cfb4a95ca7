-- Ingest finds the findings of an entity and tool through the scans of that entity and the
-- (org_id, last_seen_scan_id, id) index, so the wide entity index goes: it cost about a fifth
-- of a large first report COPY (bench/README.md, ingest).

-- DropIndex
DROP INDEX "findings_org_id_entity_type_entity_id_tool_last_seen_scan_i_idx";

-- The status list index covers every status but open. Findings are born open, so a new finding
-- costs it nothing, and an open page is served by the primary key, where open findings are most.
DROP INDEX "findings_org_id_status_id_idx";
CREATE INDEX "findings_org_id_status_id_idx" ON "findings"("org_id", "status", "id") WHERE "status" <> 'open';

-- Outbox payloads are written once and read back whole: json keeps the text as sent (no jsonb
-- conversion) and lz4 compresses the large ones (a first report writes megabytes) at a fraction
-- of the default compression cost.
ALTER TABLE "outbox" ALTER COLUMN "payload" SET DATA TYPE JSON;
ALTER TABLE "outbox" ALTER COLUMN "payload" SET COMPRESSION lz4;
