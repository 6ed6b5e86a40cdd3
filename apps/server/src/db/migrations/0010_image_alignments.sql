CREATE TABLE "image_alignments" (
	"image_a_id" uuid NOT NULL,
	"image_b_id" uuid NOT NULL,
	"points" jsonb NOT NULL,
	"updated_by_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_alignments_image_a_id_image_b_id_pk" PRIMARY KEY("image_a_id","image_b_id"),
	CONSTRAINT "image_alignments_ordered_pair" CHECK ("image_alignments"."image_a_id" < "image_alignments"."image_b_id")
);
--> statement-breakpoint
ALTER TABLE "image_alignments" ADD CONSTRAINT "image_alignments_image_a_id_images_id_fk" FOREIGN KEY ("image_a_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_alignments" ADD CONSTRAINT "image_alignments_image_b_id_images_id_fk" FOREIGN KEY ("image_b_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_alignments" ADD CONSTRAINT "image_alignments_updated_by_account_id_accounts_id_fk" FOREIGN KEY ("updated_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_alignments_image_b_idx" ON "image_alignments" USING btree ("image_b_id");
