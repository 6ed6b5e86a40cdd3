CREATE TABLE "detection_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image_id" uuid NOT NULL,
	"image_layer_id" uuid NOT NULL,
	"account_id" uuid,
	"name" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "detection_classes" (
	"image_layer_id" uuid NOT NULL,
	"class_index" smallint NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	CONSTRAINT "detection_classes_pk" PRIMARY KEY("image_layer_id","class_index"),
	CONSTRAINT "detection_classes_name_unique" UNIQUE("image_layer_id","name")
);
--> statement-breakpoint
CREATE TABLE "detections" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"set_id" uuid NOT NULL,
	"image_layer_id" uuid NOT NULL,
	"class_index" smallint NOT NULL,
	"bbox" box NOT NULL,
	"geometry" text NOT NULL,
	"measurements" text
);
--> statement-breakpoint
CREATE TABLE "detection_cells" (
	"set_id" uuid NOT NULL,
	"image_layer_id" uuid NOT NULL,
	"cell_size" integer NOT NULL,
	"class_index" smallint NOT NULL,
	"cell_column" integer NOT NULL,
	"cell_row" integer NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "detection_sets" ADD CONSTRAINT "detection_sets_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_sets" ADD CONSTRAINT "detection_sets_image_layer_id_image_layers_id_fk" FOREIGN KEY ("image_layer_id") REFERENCES "public"."image_layers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_sets" ADD CONSTRAINT "detection_sets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_classes" ADD CONSTRAINT "detection_classes_image_layer_id_image_layers_id_fk" FOREIGN KEY ("image_layer_id") REFERENCES "public"."image_layers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detections" ADD CONSTRAINT "detections_set_id_detection_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."detection_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "detection_cells" ADD CONSTRAINT "detection_cells_set_id_detection_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."detection_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "detection_sets_layer_idx" ON "detection_sets" USING btree ("image_layer_id");--> statement-breakpoint
CREATE INDEX "detection_sets_image_idx" ON "detection_sets" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "detections_set_idx" ON "detections" USING btree ("set_id","id");--> statement-breakpoint
CREATE INDEX "detections_bbox_idx" ON "detections" USING gist ("bbox");--> statement-breakpoint
CREATE INDEX "detection_cells_grid_idx" ON "detection_cells" USING btree ("image_layer_id","cell_size","cell_row","cell_column");--> statement-breakpoint
CREATE INDEX "detection_cells_set_idx" ON "detection_cells" USING btree ("set_id");
