-- CreateTable
CREATE TABLE "pipeline_trust_policies" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "issuer" VARCHAR(2048) NOT NULL,
    "audience" VARCHAR(512) NOT NULL,
    "jwks_uri" VARCHAR(2048) NOT NULL,
    "subject_pattern" VARCHAR(256) NOT NULL,
    "claims" JSONB NOT NULL DEFAULT '{}',
    "scopes" TEXT[],
    "created_by_type" VARCHAR(32),
    "created_by_id" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pipeline_trust_policies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_accounts" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "scopes" TEXT[],
    "token_hash" CHAR(64) NOT NULL,
    "token_hint" VARCHAR(16) NOT NULL,
    "created_by_type" VARCHAR(32),
    "created_by_id" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "service_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pipeline_trust_policies_issuer_org_id_idx" ON "pipeline_trust_policies"("issuer", "org_id");

-- CreateIndex
CREATE UNIQUE INDEX "pipeline_trust_policies_org_id_id_key" ON "pipeline_trust_policies"("org_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "service_accounts_token_hash_key" ON "service_accounts"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "service_accounts_org_id_id_key" ON "service_accounts"("org_id", "id");

-- AddForeignKey
ALTER TABLE "pipeline_trust_policies" ADD CONSTRAINT "pipeline_trust_policies_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_accounts" ADD CONSTRAINT "service_accounts_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
