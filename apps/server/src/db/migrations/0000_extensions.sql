-- Custom migration: extensions the later migrations rely on (trigram indexes, gen_random_uuid()).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pgcrypto;
