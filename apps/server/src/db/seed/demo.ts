import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { appMeta } from '../schema/index.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { seedDemoActivity } from './demo-activity.ts';
import { seedDemoCases } from './demo-cases.ts';
import { seedDemoGroups } from './demo-groups.ts';
import { Random } from './random.ts';
import type { DemoImageAttacher, SeededCase } from './types.ts';

export const DEMO_SEEDED_KEY = 'demo_seeded';

/** Bumped when the demo data changes shape; recorded in app_meta for support questions. */
export const DEMO_DATA_VERSION = 1;

/** Fixed "now" of the demo data, so every installation shows the same dates. */
export const DEMO_EPOCH = new Date('2026-03-02T00:00:00Z');

const SEED = 20260302;

export interface SeedDemoOptions {
  /** Adds slide images to the seeded cases; see DemoImageAttacher. Without it the cases have no images. */
  attachImages?: DemoImageAttacher;
}

export interface SeedDemoResult {
  seeded: boolean;
  /** The cases created by this run; empty when the demo data was already there. */
  cases: SeededCase[];
}

/**
 * Fills an installation with demo contracts, groups, accounts, cases, labels and comments.
 * Runs in one transaction and at most once per database: a second call (even a concurrent one
 * from another instance) finds the app_meta marker and writes nothing.
 */
export async function seedDemo(db: Db, options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  return db.transaction(async (tx) => {
    // Instances starting together would all see "not seeded"; the lock makes them take turns.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${DEMO_SEEDED_KEY}))`);
    const [marker] = await tx.select().from(appMeta).where(eq(appMeta.key, DEMO_SEEDED_KEY));
    if (marker) return { seeded: false, cases: [] };

    const r = new Random(SEED);
    const setupAt = new Date(DEMO_EPOCH.getTime() - 450 * 24 * 60 * 60 * 1000);
    const people = await seedDemoAccounts(tx, setupAt);
    const groups = await seedDemoGroups(tx, people, setupAt);
    const cases = await seedDemoCases(tx, r, people, groups, DEMO_EPOCH);
    await seedDemoActivity(tx, r, people, cases, DEMO_EPOCH);
    if (options.attachImages) await options.attachImages(tx, cases);

    await tx.insert(appMeta).values({
      key: DEMO_SEEDED_KEY,
      value: { version: DEMO_DATA_VERSION, seededAt: new Date().toISOString() },
    });
    return {
      seeded: true,
      cases: cases.map(({ group: _group, isPublic: _isPublic, ...seededCase }) => seededCase),
    };
  });
}
