ALTER TABLE "mentions" ADD COLUMN "image_note_id" uuid;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_image_note_id_image_notes_id_fk" FOREIGN KEY ("image_note_id") REFERENCES "public"."image_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mentions_image_note_idx" ON "mentions" USING btree ("image_note_id");