-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "membership_role" AS ENUM ('owner', 'admin', 'security_admin', 'member', 'viewer', 'auditor');

-- CreateEnum
CREATE TYPE "signing_key_status" AS ENUM ('active', 'retiring', 'retired');

-- CreateEnum
CREATE TYPE "scan_status" AS ENUM ('queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "tool_status" AS ENUM ('pending', 'queued', 'running', 'succeeded', 'failed', 'timed_out', 'skipped', 'cancelled');

-- CreateEnum
CREATE TYPE "target_kind" AS ENUM ('repository', 'image', 'kubernetes', 'url', 'sbom', 'other');

-- CreateEnum
CREATE TYPE "entity_type" AS ENUM ('repository', 'image', 'workload', 'cluster', 'url', 'project_version', 'cloud_account');

-- CreateEnum
CREATE TYPE "scan_plan" AS ENUM ('automatic', 'explicit');

-- CreateEnum
CREATE TYPE "severity" AS ENUM ('critical', 'high', 'medium', 'low', 'info');

-- CreateEnum
CREATE TYPE "finding_status" AS ENUM ('open', 'confirmed', 'dismissed', 'risk_accepted', 'fix_pending_verification', 'fixed');

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL,
    "slug" VARCHAR(63) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" VARCHAR(320) NOT NULL,
    "password_hash" VARCHAR(512),
    "display_name" VARCHAR(200) NOT NULL,
    "is_platform_admin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "org_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "membership_role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("org_id","user_id")
);

-- CreateTable
CREATE TABLE "signing_keys" (
    "kid" VARCHAR(64) NOT NULL,
    "algorithm" VARCHAR(16) NOT NULL,
    "public_key_pem" TEXT NOT NULL,
    "private_key_encrypted" BYTEA NOT NULL,
    "status" "signing_key_status" NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retire_after" TIMESTAMPTZ(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateTable
CREATE TABLE "refresh_tokens" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" VARCHAR(128) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "replaced_by_id" UUID,

    CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    "org_id" UUID,
    "seq" BIGINT NOT NULL,
    "actor_type" VARCHAR(32) NOT NULL,
    "actor_id" VARCHAR(200),
    "action" VARCHAR(100) NOT NULL,
    "target_type" VARCHAR(64),
    "target_id" VARCHAR(200),
    "data" JSONB NOT NULL DEFAULT '{}',
    "correlation_id" VARCHAR(128),
    "at" TIMESTAMPTZ(3) NOT NULL,
    "prev_hash" CHAR(64),
    "hash" CHAR(64) NOT NULL,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "org_quotas" (
    "org_id" UUID NOT NULL,
    "requests_per_minute" INTEGER NOT NULL,
    "burst" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "org_quotas_pkey" PRIMARY KEY ("org_id")
);

-- CreateTable
CREATE TABLE "scan_requests" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "status" "scan_status" NOT NULL DEFAULT 'queued',
    "targets" JSONB NOT NULL,
    "targets_total" INTEGER NOT NULL,
    "tools" TEXT[],
    "deadline_seconds" INTEGER,
    "created_by_type" VARCHAR(32),
    "created_by_id" VARCHAR(200),
    "correlation_id" VARCHAR(128),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "scan_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scan_request_events" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "scan_request_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" VARCHAR(64) NOT NULL,
    "scan_id" UUID,
    "target" JSONB,
    "from_status" VARCHAR(32),
    "to_status" VARCHAR(32),

    CONSTRAINT "scan_request_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scans" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "scan_request_id" UUID,
    "target" JSONB NOT NULL,
    "target_kind" "target_kind" NOT NULL,
    "entity_type" "entity_type" NOT NULL,
    "entity_id" VARCHAR(512) NOT NULL,
    "entity_name" VARCHAR(512) NOT NULL,
    "plan" "scan_plan" NOT NULL,
    "plan_reason" VARCHAR(500),
    "status" "scan_status" NOT NULL DEFAULT 'queued',
    "deadline_at" TIMESTAMPTZ(3),
    "findings_count" INTEGER NOT NULL DEFAULT 0,
    "sbom_available" BOOLEAN NOT NULL DEFAULT false,
    "created_by_type" VARCHAR(32),
    "created_by_id" VARCHAR(200),
    "correlation_id" VARCHAR(128),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "scans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scan_tools" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "scan_id" UUID NOT NULL,
    "tool" VARCHAR(64) NOT NULL,
    "status" "tool_status" NOT NULL DEFAULT 'pending',
    "queued_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "deadline_at" TIMESTAMPTZ(3),
    "findings_count" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "callback_token_hash" VARCHAR(128),
    "report_complete" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scan_tools_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "findings" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "fingerprint" VARCHAR(128) NOT NULL,
    "severity" "severity" NOT NULL,
    "status" "finding_status" NOT NULL DEFAULT 'open',
    "title" VARCHAR(1000) NOT NULL,
    "description" TEXT,
    "tool" VARCHAR(64) NOT NULL,
    "rule_id" VARCHAR(512) NOT NULL,
    "rule_name" VARCHAR(1000),
    "cwe" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "cve" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "entity_type" "entity_type" NOT NULL,
    "entity_id" VARCHAR(512) NOT NULL,
    "entity_name" VARCHAR(512) NOT NULL,
    "location" JSONB,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "suppression" JSONB,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "first_seen_scan_id" UUID,
    "last_seen_scan_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "findings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "finding_history" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "finding_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "from_status" "finding_status",
    "to_status" "finding_status" NOT NULL,
    "actor_type" VARCHAR(32) NOT NULL,
    "actor_id" VARCHAR(200),
    "reason" VARCHAR(2000),
    "scan_id" UUID,
    "data" JSONB,

    CONSTRAINT "finding_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" UUID NOT NULL,
    "org_id" UUID,
    "topic" VARCHAR(100) NOT NULL,
    "event" VARCHAR(100) NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatched_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingest_receipts" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "scan_tool_id" UUID NOT NULL,
    "idempotency_key" VARCHAR(255) NOT NULL,
    "body_sha256" CHAR(64) NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ingest_receipts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE INDEX "signing_keys_status_idx" ON "signing_keys"("status");

-- CreateIndex
CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "refresh_tokens_family_id_idx" ON "refresh_tokens"("family_id");

-- CreateIndex
CREATE INDEX "refresh_tokens_user_id_idx" ON "refresh_tokens"("user_id");

-- CreateIndex
CREATE INDEX "audit_log_org_id_at_idx" ON "audit_log"("org_id", "at");

-- CreateIndex
CREATE UNIQUE INDEX "audit_log_org_id_seq_key" ON "audit_log"("org_id", "seq");

-- CreateIndex
CREATE INDEX "scan_requests_org_id_created_at_idx" ON "scan_requests"("org_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "scan_requests_org_id_id_key" ON "scan_requests"("org_id", "id");

-- CreateIndex
CREATE INDEX "scan_request_events_org_id_scan_request_id_at_id_idx" ON "scan_request_events"("org_id", "scan_request_id", "at", "id");

-- CreateIndex
CREATE INDEX "scans_org_id_scan_request_id_idx" ON "scans"("org_id", "scan_request_id");

-- CreateIndex
CREATE INDEX "scans_org_id_entity_type_entity_id_created_at_idx" ON "scans"("org_id", "entity_type", "entity_id", "created_at");

-- CreateIndex
CREATE INDEX "scans_status_deadline_at_idx" ON "scans"("status", "deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "scans_org_id_id_key" ON "scans"("org_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "scan_tools_callback_token_hash_key" ON "scan_tools"("callback_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "scan_tools_scan_id_tool_key" ON "scan_tools"("scan_id", "tool");

-- CreateIndex
CREATE UNIQUE INDEX "scan_tools_org_id_id_key" ON "scan_tools"("org_id", "id");

-- CreateIndex
CREATE INDEX "findings_org_id_severity_id_idx" ON "findings"("org_id", "severity", "id" DESC);

-- CreateIndex
CREATE INDEX "findings_org_id_status_id_idx" ON "findings"("org_id", "status", "id" DESC);

-- CreateIndex
CREATE INDEX "findings_org_id_last_seen_scan_id_id_idx" ON "findings"("org_id", "last_seen_scan_id", "id" DESC);

-- CreateIndex
CREATE INDEX "findings_org_id_entity_type_entity_id_tool_last_seen_scan_i_idx" ON "findings"("org_id", "entity_type", "entity_id", "tool", "last_seen_scan_id");

-- CreateIndex
CREATE UNIQUE INDEX "findings_org_id_fingerprint_key" ON "findings"("org_id", "fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "findings_org_id_id_key" ON "findings"("org_id", "id");

-- CreateIndex
CREATE INDEX "finding_history_org_id_finding_id_at_idx" ON "finding_history"("org_id", "finding_id", "at");

-- CreateIndex
CREATE INDEX "outbox_dispatched_at_created_at_idx" ON "outbox"("dispatched_at", "created_at");

-- CreateIndex
CREATE INDEX "outbox_org_id_created_at_idx" ON "outbox"("org_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ingest_receipts_scan_tool_id_idempotency_key_key" ON "ingest_receipts"("scan_tool_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "org_quotas" ADD CONSTRAINT "org_quotas_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scan_request_events" ADD CONSTRAINT "scan_request_events_org_id_scan_request_id_fkey" FOREIGN KEY ("org_id", "scan_request_id") REFERENCES "scan_requests"("org_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scans" ADD CONSTRAINT "scans_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scans" ADD CONSTRAINT "scans_scan_request_id_fkey" FOREIGN KEY ("scan_request_id") REFERENCES "scan_requests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scan_tools" ADD CONSTRAINT "scan_tools_org_id_scan_id_fkey" FOREIGN KEY ("org_id", "scan_id") REFERENCES "scans"("org_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "findings" ADD CONSTRAINT "findings_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "finding_history" ADD CONSTRAINT "finding_history_org_id_finding_id_fkey" FOREIGN KEY ("org_id", "finding_id") REFERENCES "findings"("org_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ingest_receipts" ADD CONSTRAINT "ingest_receipts_org_id_scan_tool_id_fkey" FOREIGN KEY ("org_id", "scan_tool_id") REFERENCES "scan_tools"("org_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;


-- ───── Hand-written below this line: rules Prisma's schema language cannot express. ─────
-- Prisma's diff does not introspect triggers, functions or NULLS NOT DISTINCT, so none of
-- these shows up as drift in `npm run migrate:diff`.
-- NOTE: the pg driver adapter runs a migration by splitting it on every semicolon, comments and
-- function bodies included. Hence no semicolons in comments, and \073 (an escaped semicolon)
-- inside the E'' function body below.

-- Emails are stored lower-cased, which makes users_email_key a case-insensitive unique index.
-- A trigger rather than a CHECK constraint: the adapter-driven schema engine cannot describe a
-- database holding CHECK constraints, which would break `npm run migrate:diff`.
CREATE FUNCTION "users_lower_email"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN NEW.email := lower(NEW.email)\073 RETURN NEW\073 END\073';
CREATE TRIGGER "users_lower_email"
  BEFORE INSERT OR UPDATE OF "email" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_lower_email"();

-- Platform-scope audit rows have org_id NULL and form one chain, whose seq must be unique too.
DROP INDEX "audit_log_org_id_seq_key";
CREATE UNIQUE INDEX "audit_log_org_id_seq_key" ON "audit_log"("org_id", "seq") NULLS NOT DISTINCT;

-- The audit log is append-only. The hash chain detects tampering after the fact, this trigger
-- refuses it up front for every session that does not bypass triggers.
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN RAISE EXCEPTION ''audit_log is append-only (% refused)'', TG_OP USING ERRCODE = ''insufficient_privilege''\073 END\073';
CREATE TRIGGER "audit_log_append_only"
  BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
CREATE TRIGGER "audit_log_no_truncate"
  BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
