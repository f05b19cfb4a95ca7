-- The keyset list indexes ascend by id and are read backwards for newest first. Descending,
-- every new id (the largest) went to the front of its group, where btree page splits leave
-- half-empty pages, about 10 percent of a large report COPY (bench/README.md, ingest).

-- DropIndex
DROP INDEX "findings_org_id_last_seen_scan_id_id_idx";

-- DropIndex
DROP INDEX "findings_org_id_severity_id_idx";

-- DropIndex
DROP INDEX "findings_org_id_status_id_idx";

-- CreateIndex
CREATE INDEX "findings_org_id_severity_id_idx" ON "findings"("org_id", "severity", "id");

-- CreateIndex
CREATE INDEX "findings_org_id_status_id_idx" ON "findings"("org_id", "status", "id");

-- CreateIndex
CREATE INDEX "findings_org_id_last_seen_scan_id_id_idx" ON "findings"("org_id", "last_seen_scan_id", "id");
