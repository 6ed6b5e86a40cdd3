CREATE INDEX "cases_created_idx" ON "cases" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "labelleds_case_idx" ON "labelleds" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "labelleds_image_idx" ON "labelleds" USING btree ("image_id");