-- Findings are keyed by (org_id, id): one index serves the tenant-scoped lookup, the unfiltered
-- keyset list and finding_history's reference, where two (the id primary key and a unique
-- (org_id, id)) did. The foreign key to organizations goes: its per-row check is the single
-- largest cost of a bulk ingest after the heap itself (schema.prisma, model Finding).

-- finding_history references (org_id, id) through the unique index that is replaced below.
ALTER TABLE "finding_history" DROP CONSTRAINT "finding_history_org_id_finding_id_fkey";

ALTER TABLE "findings" DROP CONSTRAINT "findings_org_id_fkey";

DROP INDEX "findings_org_id_id_key";

ALTER TABLE "findings" DROP CONSTRAINT "findings_pkey",
ADD CONSTRAINT "findings_pkey" PRIMARY KEY ("org_id", "id");

ALTER TABLE "finding_history" ADD CONSTRAINT "finding_history_org_id_finding_id_fkey" FOREIGN KEY ("org_id", "finding_id") REFERENCES "findings"("org_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
