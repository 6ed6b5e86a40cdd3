CREATE TYPE "public"."associated_image_kind" AS ENUM('label', 'macro', 'thumbnail');--> statement-breakpoint
CREATE TYPE "public"."content_visibility" AS ENUM('private', 'public');--> statement-breakpoint
CREATE TYPE "public"."grant_resource_type" AS ENUM('case', 'organization');--> statement-breakpoint
CREATE TYPE "public"."grantee_type" AS ENUM('account', 'organization');--> statement-breakpoint
CREATE TYPE "public"."group_role" AS ENUM('read_only', 'member', 'administrator', 'proprietor');--> statement-breakpoint
CREATE TYPE "public"."image_status" AS ENUM('reserved', 'uploaded', 'processing', 'available', 'process_failed', 'deleting', 'upload_failed');--> statement-breakpoint
CREATE TYPE "public"."label_visibility" AS ENUM('private', 'public');--> statement-breakpoint
CREATE TYPE "public"."prediction_status" AS ENUM('waiting', 'running', 'completed', 'failed');--> statement-breakpoint
CREATE TYPE "public"."resolution_unit" AS ENUM('dpi', 'dpc');--> statement-breakpoint
CREATE TYPE "public"."screen_setting_type" AS ENUM('case_list', 'case_detail', 'drawing_visibility');--> statement-breakpoint
CREATE TYPE "public"."specimen_type" AS ENUM('biopsy', 'surgical', 'LBC', 'autopsy');--> statement-breakpoint
CREATE TYPE "public"."upload_kind" AS ENUM('image', 'attachment');--> statement-breakpoint
CREATE TYPE "public"."upload_status" AS ENUM('receiving', 'complete', 'failed', 'aborted');--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"display_name" text,
	"avatar_url" text,
	"affiliation" text,
	"profile" text,
	"subject" text,
	"password_hash" text,
	"is_super_user" boolean DEFAULT false NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_unique" UNIQUE("email"),
	CONSTRAINT "accounts_subject_unique" UNIQUE("subject"),
	CONSTRAINT "accounts_email_lower_case" CHECK ("accounts"."email" = lower("accounts"."email"))
);
--> statement-breakpoint
CREATE TABLE "contract_proprietors" (
	"contract_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_proprietors_contract_id_account_id_pk" PRIMARY KEY("contract_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"plan" text DEFAULT 'standard' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"contractor_name" text DEFAULT '' NOT NULL,
	"details" text,
	"country_code" text,
	"postal_code" text,
	"address" text,
	"tel" text,
	"emergency_contact" text,
	"billing_contact" text,
	"max_organizations" integer,
	"storage_limit_gb" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contracts_dates_ordered" CHECK ("contracts"."end_date" IS NULL OR "contracts"."end_date" >= "contracts"."start_date"),
	CONSTRAINT "contracts_max_organizations_positive" CHECK ("contracts"."max_organizations" IS NULL OR "contracts"."max_organizations" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid,
	"contract_id" uuid,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"roles" "group_role"[] DEFAULT '{}' NOT NULL,
	"token" text NOT NULL,
	"invited_by_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "invitations_token_unique" UNIQUE("token"),
	CONSTRAINT "invitations_target" CHECK (num_nonnulls("invitations"."organization_id", "invitations"."contract_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"role" "group_role" DEFAULT 'member' NOT NULL,
	"invited" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_organization_account_unique" UNIQUE("organization_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "organization_partners" (
	"organization_id" uuid NOT NULL,
	"partner_organization_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_partners_organization_id_partner_organization_id_pk" PRIMARY KEY("organization_id","partner_organization_id"),
	CONSTRAINT "organization_partners_not_self" CHECK ("organization_partners"."organization_id" <> "organization_partners"."partner_organization_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"country" text,
	"phone" text,
	"postal_code" text,
	"address" text,
	"contact" text,
	"contract_id" uuid NOT NULL,
	"storage_limit_gb" integer,
	"prediction_enabled" boolean DEFAULT false NOT NULL,
	"download_drawings_enabled" boolean DEFAULT false NOT NULL,
	"is_provider" boolean DEFAULT false NOT NULL,
	"drawing_creation_denied" boolean DEFAULT false NOT NULL,
	"ai_agreement_skipped" boolean DEFAULT false NOT NULL,
	"used_original_bytes" bigint DEFAULT 0 NOT NULL,
	"used_pyramidal_bytes" bigint DEFAULT 0 NOT NULL,
	"used_attachment_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_storage_limit_positive" CHECK ("organizations"."storage_limit_gb" IS NULL OR "organizations"."storage_limit_gb" >= 0)
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_number" text NOT NULL,
	"owner_organization_id" uuid NOT NULL,
	"intended_owner_organization_id" uuid,
	"organ" text,
	"specimen_type" "specimen_type",
	"diagnosis" text,
	"gross_findings" text,
	"microscopic_findings" text,
	"comments" text,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_by_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"resource_type" "grant_resource_type" NOT NULL,
	"case_id" uuid,
	"organization_id" uuid,
	"granted_role" "group_role" NOT NULL,
	"grantee_type" "grantee_type" NOT NULL,
	"grantee_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grants_resource_matches_type" CHECK (("grants"."resource_type" = 'case' AND "grants"."case_id" IS NOT NULL AND "grants"."organization_id" IS NULL)
        OR ("grants"."resource_type" = 'organization' AND "grants"."organization_id" IS NOT NULL AND "grants"."case_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "image_associated" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"kind" "associated_image_kind" NOT NULL,
	"blob_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_associated_image_kind_unique" UNIQUE("image_id","kind")
);
--> statement-breakpoint
CREATE TABLE "image_layers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"layer_number" integer NOT NULL,
	"pyramidal_size" bigint DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"tile_size" integer DEFAULT 512 NOT NULL,
	"pyramid_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_layers_image_layer_unique" UNIQUE("image_id","layer_number")
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"upload_account_id" uuid,
	"filename" text NOT NULL,
	"display_name" text NOT NULL,
	"status" "image_status" DEFAULT 'reserved' NOT NULL,
	"process_error_code" integer,
	"process_error_message" text,
	"size" bigint DEFAULT 0 NOT NULL,
	"format" text,
	"staining" text,
	"scanned_in" text,
	"scanned_at" timestamp with time zone,
	"width" integer,
	"height" integer,
	"resolution_x" double precision,
	"resolution_y" double precision,
	"resolution_unit" "resolution_unit",
	"magnification" double precision,
	"organ" text,
	"specimen_type" "specimen_type",
	"model_name" text,
	"image_tags" text[] DEFAULT '{}' NOT NULL,
	"original_key" text,
	"thumbnail_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_case_filename_unique" UNIQUE("case_id","filename")
);
--> statement-breakpoint
CREATE TABLE "labelleds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid,
	"image_id" uuid,
	"account_id" uuid NOT NULL,
	"visibility_type" "label_visibility" NOT NULL,
	"label_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "labelleds_one_target" CHECK (num_nonnulls("labelleds"."case_id", "labelleds"."image_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"image_id" uuid,
	"account_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mentions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"comment_id" uuid,
	"case_id" uuid NOT NULL,
	"image_id" uuid,
	"mentioned_account_id" uuid NOT NULL,
	"author_account_id" uuid,
	"label" text NOT NULL,
	"message" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"blob_key" text NOT NULL,
	"upload_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attachments_case_filename_unique" UNIQUE("case_id","filename")
);
--> statement-breakpoint
CREATE TABLE "drawings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"image_layer_id" uuid NOT NULL,
	"account_id" uuid,
	"visibility" "content_visibility" DEFAULT 'public' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"shape_type" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"style" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"measurement" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "image_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"account_id" uuid,
	"visibility" "content_visibility" DEFAULT 'public' NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "predictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"image_layer_id" uuid,
	"model_name" text NOT NULL,
	"status" "prediction_status" DEFAULT 'waiting' NOT NULL,
	"verification_status" text,
	"verified_at" timestamp with time zone,
	"result" jsonb,
	"error_message" text,
	"requested_by_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_colors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"case_id" uuid,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_colors_account_case_unique" UNIQUE NULLS NOT DISTINCT("account_id","case_id")
);
--> statement-breakpoint
CREATE TABLE "color_presets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"uploaded_by_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_reads" (
	"notice_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_notice_id_account_id_pk" PRIMARY KEY("notice_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"overview" text NOT NULL,
	"body" text NOT NULL,
	"open_at" timestamp with time zone NOT NULL,
	"close_at" timestamp with time zone,
	"permission" "group_role" DEFAULT 'read_only' NOT NULL,
	"is_draft" boolean DEFAULT true NOT NULL,
	"author_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screen_settings" (
	"account_id" uuid NOT NULL,
	"setting_type" "screen_setting_type" NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screen_settings_account_id_setting_type_pk" PRIMARY KEY("account_id","setting_type")
);
--> statement-breakpoint
CREATE TABLE "upload_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "upload_kind" NOT NULL,
	"case_id" uuid NOT NULL,
	"image_id" uuid,
	"attachment_id" uuid,
	"account_id" uuid,
	"filename" text NOT NULL,
	"blob_key" text NOT NULL,
	"total_bytes" bigint,
	"received_bytes" bigint DEFAULT 0 NOT NULL,
	"status" "upload_status" DEFAULT 'receiving' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_records_bytes_in_range" CHECK ("upload_records"."received_bytes" >= 0 AND ("upload_records"."total_bytes" IS NULL OR "upload_records"."received_bytes" <= "upload_records"."total_bytes"))
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_payloads" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_payloads_kind_id_pk" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
ALTER TABLE "contract_proprietors" ADD CONSTRAINT "contract_proprietors_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_proprietors" ADD CONSTRAINT "contract_proprietors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_account_id_accounts_id_fk" FOREIGN KEY ("invited_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_partners" ADD CONSTRAINT "organization_partners_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_partners" ADD CONSTRAINT "organization_partners_partner_organization_id_organizations_id_fk" FOREIGN KEY ("partner_organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_owner_organization_id_organizations_id_fk" FOREIGN KEY ("owner_organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_intended_owner_organization_id_organizations_id_fk" FOREIGN KEY ("intended_owner_organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_created_by_account_id_accounts_id_fk" FOREIGN KEY ("created_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_associated" ADD CONSTRAINT "image_associated_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_layers" ADD CONSTRAINT "image_layers_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_upload_account_id_accounts_id_fk" FOREIGN KEY ("upload_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labelleds" ADD CONSTRAINT "labelleds_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labelleds" ADD CONSTRAINT "labelleds_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labelleds" ADD CONSTRAINT "labelleds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_mentioned_account_id_accounts_id_fk" FOREIGN KEY ("mentioned_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_author_account_id_accounts_id_fk" FOREIGN KEY ("author_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_upload_account_id_accounts_id_fk" FOREIGN KEY ("upload_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drawings" ADD CONSTRAINT "drawings_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drawings" ADD CONSTRAINT "drawings_image_layer_id_image_layers_id_fk" FOREIGN KEY ("image_layer_id") REFERENCES "public"."image_layers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drawings" ADD CONSTRAINT "drawings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_notes" ADD CONSTRAINT "image_notes_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_notes" ADD CONSTRAINT "image_notes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_image_layer_id_image_layers_id_fk" FOREIGN KEY ("image_layer_id") REFERENCES "public"."image_layers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_requested_by_account_id_accounts_id_fk" FOREIGN KEY ("requested_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_colors" ADD CONSTRAINT "account_colors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_colors" ADD CONSTRAINT "account_colors_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "color_presets" ADD CONSTRAINT "color_presets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_media" ADD CONSTRAINT "notice_media_uploaded_by_account_id_accounts_id_fk" FOREIGN KEY ("uploaded_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_author_account_id_accounts_id_fk" FOREIGN KEY ("author_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_settings" ADD CONSTRAINT "screen_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_records" ADD CONSTRAINT "upload_records_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_records" ADD CONSTRAINT "upload_records_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_records" ADD CONSTRAINT "upload_records_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_records" ADD CONSTRAINT "upload_records_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_proprietors_account_idx" ON "contract_proprietors" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "invitations_organization_idx" ON "invitations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "invitations_contract_idx" ON "invitations" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "invitations_email_idx" ON "invitations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "memberships_account_idx" ON "memberships" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "organization_partners_partner_idx" ON "organization_partners" USING btree ("partner_organization_id");--> statement-breakpoint
CREATE INDEX "organizations_contract_idx" ON "organizations" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "organizations_name_idx" ON "organizations" USING btree ("name");--> statement-breakpoint
CREATE INDEX "cases_owner_created_idx" ON "cases" USING btree ("owner_organization_id","created_at");--> statement-breakpoint
CREATE INDEX "cases_case_number_idx" ON "cases" USING btree ("case_number");--> statement-breakpoint
CREATE INDEX "cases_intended_owner_idx" ON "cases" USING btree ("intended_owner_organization_id");--> statement-breakpoint
CREATE INDEX "cases_public_idx" ON "cases" USING btree ("is_public") WHERE "cases"."is_public";--> statement-breakpoint
CREATE INDEX "cases_case_number_trgm_idx" ON "cases" USING gin ("case_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cases_diagnosis_trgm_idx" ON "cases" USING gin ("diagnosis" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cases_gross_findings_trgm_idx" ON "cases" USING gin ("gross_findings" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cases_microscopic_findings_trgm_idx" ON "cases" USING gin ("microscopic_findings" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cases_comments_trgm_idx" ON "cases" USING gin ("comments" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cases_tags_idx" ON "cases" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "grants_case_grantee_unique" ON "grants" USING btree ("case_id","grantee_type","grantee_id") WHERE "grants"."case_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "grants_organization_grantee_unique" ON "grants" USING btree ("organization_id","grantee_type","grantee_id") WHERE "grants"."organization_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "grants_grantee_idx" ON "grants" USING btree ("grantee_type","grantee_id");--> statement-breakpoint
CREATE INDEX "images_status_idx" ON "images" USING btree ("status");--> statement-breakpoint
CREATE INDEX "images_organ_idx" ON "images" USING btree ("organ");--> statement-breakpoint
CREATE INDEX "images_specimen_type_idx" ON "images" USING btree ("specimen_type");--> statement-breakpoint
CREATE INDEX "images_model_name_idx" ON "images" USING btree ("model_name");--> statement-breakpoint
CREATE INDEX "images_original_key_idx" ON "images" USING btree ("original_key");--> statement-breakpoint
CREATE INDEX "images_display_name_trgm_idx" ON "images" USING gin ("display_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "images_image_tags_idx" ON "images" USING gin ("image_tags");--> statement-breakpoint
CREATE UNIQUE INDEX "labelleds_case_private_unique" ON "labelleds" USING btree ("case_id","account_id","label_name") WHERE "labelleds"."visibility_type" = 'private' AND "labelleds"."case_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "labelleds_case_public_unique" ON "labelleds" USING btree ("case_id","label_name") WHERE "labelleds"."visibility_type" = 'public' AND "labelleds"."case_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "labelleds_image_private_unique" ON "labelleds" USING btree ("image_id","account_id","label_name") WHERE "labelleds"."visibility_type" = 'private' AND "labelleds"."image_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "labelleds_image_public_unique" ON "labelleds" USING btree ("image_id","label_name") WHERE "labelleds"."visibility_type" = 'public' AND "labelleds"."image_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "labelleds_account_idx" ON "labelleds" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "comments_case_created_idx" ON "comments" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_image_idx" ON "comments" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "mentions_recipient_created_idx" ON "mentions" USING btree ("mentioned_account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mentions_comment_idx" ON "mentions" USING btree ("comment_id");--> statement-breakpoint
CREATE INDEX "mentions_case_idx" ON "mentions" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "drawings_layer_visibility_idx" ON "drawings" USING btree ("image_layer_id","visibility");--> statement-breakpoint
CREATE INDEX "drawings_image_idx" ON "drawings" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "drawings_account_idx" ON "drawings" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "image_notes_image_idx" ON "image_notes" USING btree ("image_id","created_at");--> statement-breakpoint
CREATE INDEX "predictions_image_model_idx" ON "predictions" USING btree ("image_id","model_name");--> statement-breakpoint
CREATE INDEX "predictions_status_idx" ON "predictions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "color_presets_organization_idx" ON "color_presets" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "color_presets_one_default" ON "color_presets" USING btree ("organization_id") WHERE "color_presets"."is_default";--> statement-breakpoint
CREATE INDEX "notice_reads_account_idx" ON "notice_reads" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "notices_open_idx" ON "notices" USING btree ("is_draft","open_at");--> statement-breakpoint
CREATE INDEX "upload_records_account_status_idx" ON "upload_records" USING btree ("account_id","status");--> statement-breakpoint
CREATE INDEX "upload_records_case_idx" ON "upload_records" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "upload_records_status_updated_idx" ON "upload_records" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "oidc_payloads_grant_idx" ON "oidc_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid_idx" ON "oidc_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oidc_payloads_user_code_idx" ON "oidc_payloads" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "oidc_payloads_expires_idx" ON "oidc_payloads" USING btree ("expires_at");