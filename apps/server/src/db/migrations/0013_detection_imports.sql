CREATE TABLE "detection_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"image_layer_id" uuid NOT NULL,
	"account_id" uuid,
	"name" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"bytes_total" bigint NOT NULL,
	"bytes_read" bigint DEFAULT 0 NOT NULL,
	"features_read" integer DEFAULT 0 NOT NULL,
	"set_id" uuid,
	"error_message" text,
	"error_field" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "detection_imports" ADD CONSTRAINT "detection_imports_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_imports" ADD CONSTRAINT "detection_imports_image_layer_id_image_layers_id_fk" FOREIGN KEY ("image_layer_id") REFERENCES "public"."image_layers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_imports" ADD CONSTRAINT "detection_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_imports" ADD CONSTRAINT "detection_imports_set_id_detection_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."detection_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "detection_imports_layer_idx" ON "detection_imports" USING btree ("image_layer_id");
--> statement-breakpoint
ALTER TABLE "detection_sets" ADD COLUMN "prediction_id" uuid;--> statement-breakpoint
ALTER TABLE "detection_sets" ADD CONSTRAINT "detection_sets_prediction_id_predictions_id_fk" FOREIGN KEY ("prediction_id") REFERENCES "public"."predictions"("id") ON DELETE cascade ON UPDATE no action;
