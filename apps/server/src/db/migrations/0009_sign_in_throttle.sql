CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" double precision DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"signed_in_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttle_expires_idx" ON "sign_in_throttle" USING btree ("expires_at");