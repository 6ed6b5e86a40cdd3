ALTER TABLE "predictions" ADD COLUMN "progress_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "progress_total" integer DEFAULT 0 NOT NULL;