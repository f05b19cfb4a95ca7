-- The text keys of findings indexes compare bytewise (the C collation). Nothing orders findings by
-- them, and equality is the same under any deterministic collation, but a libc collation other
-- than C compares through strcoll, and every row COPYed into the entity index compares the same
-- entity id and tool a dozen times: ~15% of a large first report database time
-- (bench/README.md, ingest). The Prisma schema cannot spell a column collation, hence SQL only.
ALTER TABLE "findings"
  ALTER COLUMN "fingerprint" SET DATA TYPE VARCHAR(128) COLLATE "C",
  ALTER COLUMN "entity_id" SET DATA TYPE VARCHAR(512) COLLATE "C",
  ALTER COLUMN "tool" SET DATA TYPE VARCHAR(64) COLLATE "C";
