ALTER TABLE "image_layers" ADD COLUMN "from_original" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "conversion_progress" smallint;
