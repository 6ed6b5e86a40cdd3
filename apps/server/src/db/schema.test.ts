import { eq, getTableName, is, sql } from 'drizzle-orm';
import { isPgEnum, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import * as schema from './schema/index.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await database.db.execute(query);
  return result.rows as T[];
}

describe('migrated schema', () => {
  it('has every table and enum the drizzle schema declares', async () => {
    const exported: unknown[] = Object.values(schema);
    const tables = exported.filter((value): value is PgTable => is(value, PgTable)).map((table) => getTableName(table));
    expect(tables.length).toBeGreaterThanOrEqual(28);
    const present = await rows<{ table_name: string }>(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(present.map((row) => row.table_name)).toEqual(expect.arrayContaining(tables));

    const enums = exported.filter(isPgEnum);
    const types = await rows<{ typname: string; labels: string[] }>(
      sql`SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS labels
          FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
    );
    for (const pgEnum of enums) {
      expect(types.find((type) => type.typname === pgEnum.enumName)?.labels).toEqual(pgEnum.enumValues);
    }
  });

  it('installs pg_trgm and pgcrypto', async () => {
    const extensions = await rows<{ extname: string }>(sql`SELECT extname FROM pg_extension`);
    expect(extensions.map((row) => row.extname)).toEqual(expect.arrayContaining(['pg_trgm', 'pgcrypto']));
  });

  it('builds trigram indexes on the searchable text fields', async () => {
    const names = [
      'cases_case_number_trgm_idx',
      'cases_diagnosis_trgm_idx',
      'cases_gross_findings_trgm_idx',
      'cases_microscopic_findings_trgm_idx',
      'cases_comments_trgm_idx',
      'images_display_name_trgm_idx',
    ];
    const indexes = await rows<{ indexname: string; indexdef: string }>(
      sql`SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ${names}`,
    );
    expect(indexes).toHaveLength(names.length);
    for (const index of indexes) expect(index.indexdef).toMatch(/USING gin \(\w+ gin_trgm_ops\)/);
  });

  it('answers an infix like-search from the trigram index', async () => {
    const org = await seedOrganization();
    await database.db.insert(schema.cases).values(
      Array.from({ length: 300 }, (_, i) => ({
        caseNumber: `S26-${String(i).padStart(5, '0')}`,
        ownerOrganizationId: org,
        diagnosis: i % 50 === 0 ? 'Invasive ductal carcinoma, grade 2' : `Benign finding ${i}`,
      })),
    );
    await database.db.execute(sql`ANALYZE cases`);
    const plan = await database.db.transaction(async (tx) => {
      // Small tables make a sequential scan cheapest; switching it off shows whether the index can serve the query.
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = await tx.execute(sql`EXPLAIN SELECT id FROM cases WHERE diagnosis ILIKE '%ductal carc%'`);
      return result.rows.map((row) => String(row['QUERY PLAN'])).join('\n');
    });
    expect(plan).toContain('cases_diagnosis_trgm_idx');
  });

  it('enforces the integrity rules the services rely on', async () => {
    const org = await seedOrganization();
    const [account] = await database.db
      .insert(schema.accounts)
      .values({ email: 'rules@example.test' })
      .returning({ id: schema.accounts.id });
    const [kase] = await database.db
      .insert(schema.cases)
      .values({ caseNumber: 'B26-0001', ownerOrganizationId: org })
      .returning({ id: schema.cases.id });
    if (!account || !kase) throw new Error('insert returned nothing');

    await expect(database.db.insert(schema.accounts).values({ email: 'Upper@example.test' })).rejects.toThrow();
    await expect(
      database.db.insert(schema.grants).values({
        resourceType: 'case',
        organizationId: org,
        grantedRole: 'read_only',
        granteeType: 'account',
        granteeId: account.id,
      }),
    ).rejects.toThrow();
    await expect(
      database.db.insert(schema.labelleds).values({
        accountId: account.id,
        visibilityType: 'public',
        labelName: 'Badge-#000000',
      }),
    ).rejects.toThrow();

    const star = {
      caseId: kase.id,
      accountId: account.id,
      visibilityType: 'private' as const,
      labelName: 'Star-#FFD700',
    };
    await database.db.insert(schema.labelleds).values(star);
    await expect(database.db.insert(schema.labelleds).values(star)).rejects.toThrow();

    const color = {
      accountId: account.id,
      settings: { saturation: 0, brightness: 0, contrast: 0, gamma: 1, tint: 0, invert: 0 as const },
    };
    await database.db.insert(schema.accountColors).values(color);
    await expect(database.db.insert(schema.accountColors).values(color)).rejects.toThrow();

    await database.db
      .insert(schema.colorPresets)
      .values({ organizationId: org, name: 'A', settings: color.settings, isDefault: true });
    await database.db.insert(schema.colorPresets).values({ organizationId: org, name: 'B', settings: color.settings });
    await expect(
      database.db
        .insert(schema.colorPresets)
        .values({ organizationId: org, name: 'C', settings: color.settings, isDefault: true }),
    ).rejects.toThrow();
  });

  it('deletes the dependants of a case with it', async () => {
    const org = await seedOrganization();
    const [kase] = await database.db
      .insert(schema.cases)
      .values({ caseNumber: 'S26-99999', ownerOrganizationId: org })
      .returning({ id: schema.cases.id });
    if (!kase) throw new Error('insert returned nothing');
    const [image] = await database.db
      .insert(schema.images)
      .values({ caseId: kase.id, filename: 'slide.svs', displayName: 'slide.svs' })
      .returning({ id: schema.images.id });
    if (!image) throw new Error('insert returned nothing');
    await database.db.insert(schema.imageLayers).values({
      imageId: image.id,
      layerNumber: 0,
      width: 1000,
      height: 800,
      pyramidKey: 'pyramids/x.tif',
      metadata: { the_z: 0, position_z: 0, position_z_unit: 'um' },
    });
    await database.db.delete(schema.cases).where(eq(schema.cases.id, kase.id));
    const left = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM image_layers WHERE image_id = ${image.id}`,
    );
    expect(left[0]?.n).toBe(0);
  });
});

async function seedOrganization(): Promise<string> {
  const [contract] = await database.db
    .insert(schema.contracts)
    .values({ name: 'Test contract', startDate: '2026-01-01' })
    .returning({ id: schema.contracts.id });
  if (!contract) throw new Error('insert returned nothing');
  const [org] = await database.db
    .insert(schema.organizations)
    .values({ name: 'Test group', contractId: contract.id })
    .returning({ id: schema.organizations.id });
  if (!org) throw new Error('insert returned nothing');
  return org.id;
}
