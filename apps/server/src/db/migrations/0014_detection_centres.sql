CREATE TABLE "detection_centres" (
	"set_id" uuid NOT NULL,
	"image_layer_id" uuid NOT NULL,
	"class_index" smallint NOT NULL,
	"cell_column" integer NOT NULL,
	"cell_row" integer NOT NULL,
	"centres" point[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "detection_centres" ADD CONSTRAINT "detection_centres_set_id_detection_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."detection_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "detection_centres_grid_idx" ON "detection_centres" USING btree ("image_layer_id","cell_row","cell_column");--> statement-breakpoint
CREATE INDEX "detection_centres_set_idx" ON "detection_centres" USING btree ("set_id");--> statement-breakpoint
-- Imports stored before: the centres of their objects per 256-pixel cell, as the import now writes them.
INSERT INTO "detection_centres" ("set_id", "image_layer_id", "class_index", "cell_column", "cell_row", "centres")
SELECT "set_id", "image_layer_id", "class_index", floor((center("bbox"))[0] / 256)::int, floor((center("bbox"))[1] / 256)::int,
       array_agg(center("bbox"))
FROM "detections" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
-- And their counts in 1024-pixel cells, four by four of the 256-pixel ones (cells are never negative).
INSERT INTO "detection_cells" ("set_id", "image_layer_id", "cell_size", "class_index", "cell_column", "cell_row", "count")
SELECT "set_id", "image_layer_id", 1024, "class_index", "cell_column" / 4, "cell_row" / 4, sum("count")
FROM "detection_cells" WHERE "cell_size" = 256 GROUP BY 1, 2, 4, 5, 6;
