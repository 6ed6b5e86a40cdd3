import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { verifyPassword } from '../auth/password.ts';
import * as schema from './schema/index.ts';
import { DEMO_ACCOUNTS } from './seed/demo-accounts.ts';
import { seedDemo } from './seed/demo.ts';
import { DEMO_SHARE_FALLBACK_SECONDS, demoImageAttacher } from './seed/demo-images.ts';
import { FilesystemBlobStore } from '../storage/filesystem-blob-store.ts';
import type { SeededCase } from './seed/types.ts';

let database: TestDatabase;
let attached: readonly SeededCase[] = [];
let first: Awaited<ReturnType<typeof seedDemo>>;
let second: Awaited<ReturnType<typeof seedDemo>>;

beforeAll(async () => {
  database = await createTestDatabase();
  first = await seedDemo(database.db, {
    attachImages: (_tx, cases) => {
      attached = cases;
      return Promise.resolve();
    },
  });
  second = await seedDemo(database.db);
});

afterAll(async () => {
  await database.close();
});

async function countOf(table: Parameters<ReturnType<TestDatabase['db']['select']>['from']>[0]): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

async function rolesOf(email: string): Promise<string[]> {
  const rows = await database.db
    .select({ role: schema.memberships.role })
    .from(schema.memberships)
    .innerJoin(schema.accounts, eq(schema.accounts.id, schema.memberships.accountId))
    .where(eq(schema.accounts.email, email));
  return rows.map((row) => row.role);
}

describe('demo seed', () => {
  it('seeds once and skips the second time', async () => {
    expect(first.seeded).toBe(true);
    expect(second).toEqual({ seeded: false, cases: [] });
    expect(await countOf(schema.appMeta)).toBe(1);
    expect(await countOf(schema.cases)).toBe(first.cases.length);
  });

  it('creates contracts, groups and their settings', async () => {
    expect(await countOf(schema.contracts)).toBe(2);
    const groups = await database.db.select().from(schema.organizations);
    expect(groups.length).toBeGreaterThanOrEqual(7);
    expect(groups.filter((g) => g.isProvider)).toHaveLength(1);
    expect(groups.filter((g) => g.predictionEnabled).length).toBeGreaterThanOrEqual(3);
    expect(groups.some((g) => g.downloadDrawingsEnabled)).toBe(true);
    expect(await countOf(schema.organizationPartners)).toBeGreaterThanOrEqual(1);
  });

  it('gives every demo account its role', async () => {
    expect(await countOf(schema.accounts)).toBeGreaterThanOrEqual(6);
    const expectRoles = async (email: string, role: string) => {
      const roles = await rolesOf(email);
      expect(roles.length, email).toBeGreaterThanOrEqual(2);
      expect(roles.length, email).toBeLessThanOrEqual(3);
      expect(new Set(roles), email).toEqual(new Set([role]));
    };
    await expectRoles('read_only@demo.test', 'read_only');
    await expectRoles('member@demo.test', 'member');
    await expectRoles('admin@demo.test', 'administrator');
    await expectRoles('owner@demo.test', 'proprietor');

    const [ownerContract] = await database.db
      .select({ n: count() })
      .from(schema.contractProprietors)
      .innerJoin(schema.accounts, eq(schema.accounts.id, schema.contractProprietors.accountId))
      .where(eq(schema.accounts.email, 'owner@demo.test'));
    expect(ownerContract?.n).toBe(1);

    const staffGroups = await database.db
      .select({ isProvider: schema.organizations.isProvider })
      .from(schema.memberships)
      .innerJoin(schema.organizations, eq(schema.organizations.id, schema.memberships.organizationId))
      .innerJoin(schema.accounts, eq(schema.accounts.id, schema.memberships.accountId))
      .where(eq(schema.accounts.email, 'staff@demo.test'));
    expect(staffGroups).toEqual([{ isProvider: true }]);

    const supers = await database.db.select().from(schema.accounts).where(eq(schema.accounts.isSuperUser, true));
    expect(supers.map((a) => a.email)).toEqual(['super@demo.test']);
  });

  it('stores passwords that verify', async () => {
    for (const demo of DEMO_ACCOUNTS) {
      const [account] = await database.db.select().from(schema.accounts).where(eq(schema.accounts.email, demo.email));
      expect(account?.passwordHash, demo.email).toBeTruthy();
      expect(await verifyPassword(demo.password, account?.passwordHash ?? ''), demo.email).toBe(true);
      expect(await verifyPassword(`${demo.password}x`, account?.passwordHash ?? ''), demo.email).toBe(false);
    }
  });

  it('creates about forty varied cases with labels and comments', async () => {
    const rows = await database.db.select().from(schema.cases);
    expect(rows.length).toBeGreaterThanOrEqual(35);
    expect(rows.length).toBeLessThanOrEqual(45);
    expect(new Set(rows.map((c) => c.caseNumber)).size).toBe(rows.length);
    expect(new Set(rows.map((c) => c.ownerOrganizationId)).size).toBeGreaterThanOrEqual(7);
    expect(new Set(rows.map((c) => c.organ)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(rows.map((c) => c.specimenType))).toEqual(new Set(['biopsy', 'surgical', 'LBC', 'autopsy']));
    expect(rows.some((c) => c.isPublic)).toBe(true);
    expect(rows.some((c) => !c.isPublic)).toBe(true);
    expect(rows.every((c) => c.tags.length <= 4 && c.diagnosis && c.grossFindings && c.microscopicFindings)).toBe(true);
    expect(rows.some((c) => c.tags.length > 0)).toBe(true);

    const labels = await database.db.select().from(schema.labelleds);
    expect(labels.some((l) => l.visibilityType === 'private')).toBe(true);
    expect(labels.some((l) => l.visibilityType === 'public')).toBe(true);
    expect(await countOf(schema.comments)).toBeGreaterThanOrEqual(5);
    expect(await countOf(schema.mentions)).toBeGreaterThanOrEqual(1);
    expect(await countOf(schema.images)).toBe(0);
  });

  it('hands the seeded cases to the image extension point', () => {
    expect(attached.map((c) => c.id).sort()).toEqual(first.cases.map((c) => c.id).sort());
  });

  it('seeds once when two instances start together', async () => {
    const other = await createTestDatabase();
    try {
      const results = await Promise.all([seedDemo(other.db), seedDemo(other.db)]);
      expect(results.map((result) => result.seeded).sort()).toEqual([false, true]);
    } finally {
      await other.close();
    }
  });

  it('produces the same data on every run', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemo(other.db);
      const query = sql`SELECT string_agg(case_number || '|' || diagnosis || '|' || array_to_string(tags, ','), ';' ORDER BY case_number) AS digest FROM cases`;
      const [a, b] = await Promise.all([database.db.execute(query), other.db.execute(query)]);
      expect(a.rows[0]?.['digest']).toBeTruthy();
      expect(b.rows[0]?.['digest']).toBe(a.rows[0]?.['digest']);
    } finally {
      await other.close();
    }
  });
});

describe('demo slides', () => {
  it('go to the two newest cases of every group, so each default case list opens on slides, from one stored original', async () => {
    const other = await createTestDatabase();
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-slides-'));
    try {
      const blobStore = new FilesystemBlobStore(root);
      const images = demoImageAttacher(blobStore);
      const { cases } = await seedDemo(other.db, { attachImages: images.attach });
      const withSlide = new Set(
        (await other.db.select({ caseId: schema.images.caseId }).from(schema.images)).map((row) => row.caseId),
      );
      const groups = new Set(cases.map((seeded) => seeded.ownerOrganizationId));
      expect(groups.size).toBeGreaterThanOrEqual(7);
      for (const group of groups) {
        const newest = cases
          .filter((seeded) => seeded.ownerOrganizationId === group)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
        expect(newest.slice(0, 2).every((seeded) => withSlide.has(seeded.id))).toBe(true);
      }
      // One stored original for all of them, converted once: the first now, the others only if it never commits.
      const rows = await other.db.select({ originalKey: schema.images.originalKey }).from(schema.images);
      expect(new Set(rows.map((row) => row.originalKey)).size).toBe(1);
      const stored: string[] = [];
      for await (const key of blobStore.list('images/')) stored.push(key);
      expect(stored).toEqual([rows[0]!.originalKey]);
      const [now, ...later] = images.conversions();
      expect(now).toEqual({ imageId: expect.any(String) });
      expect(later).toHaveLength(withSlide.size - 1);
      expect(later.every((conversion) => conversion.startAfterSeconds === DEMO_SHARE_FALLBACK_SECONDS)).toBe(true);
    } finally {
      await other.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
