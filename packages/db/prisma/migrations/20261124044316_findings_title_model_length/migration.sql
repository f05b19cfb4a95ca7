-- A finding title may be as long as the finding model allows (1,024 characters, limitFinding):
-- a longer title in the column than in the model made a valid report fail at COPY. Widening a
-- varchar does not rewrite the table.
ALTER TABLE "findings" ALTER COLUMN "title" SET DATA TYPE VARCHAR(1024);
