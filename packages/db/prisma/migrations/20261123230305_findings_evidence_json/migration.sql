-- Evidence and location as json: written in bulk by ingest and only ever read back whole, so
-- PostgreSQL checks the text instead of building jsonb (bench/README.md, ingest).
ALTER TABLE "findings" ALTER COLUMN "location" SET DATA TYPE JSON USING "location"::json,
ALTER COLUMN "evidence" SET DATA TYPE JSON USING "evidence"::json;
