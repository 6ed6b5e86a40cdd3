import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The heartbeat of every running job: its worker renews `renewedAt` every few seconds while the
 * job runs and deletes the row when it ends. An active pg-boss job whose lease lapsed belongs to a
 * dead worker and is failed (so retried) in minutes rather than at its time limit.
 */
export const jobLeases = pgTable('job_leases', {
  jobId: uuid().primaryKey(),
  queue: text().notNull(),
  renewedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
