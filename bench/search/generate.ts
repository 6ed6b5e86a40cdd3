import { AI_MODELS, PRIVATE_LABEL_NAME, PUBLIC_LABEL_NAMES } from '@pathology/contract';
import type pg from 'pg';
import {
  CASE_COMMENTS,
  CASE_TAGS,
  DIAGNOSES,
  GROUP_NAMES,
  IMAGE_TAGS,
  MICROSCOPIC_FINDINGS,
  STAINS,
} from './vocabulary.ts';

/** Bump when the generated data changes: the kept database of an older version is regenerated. */
export const GENERATOR_VERSION = 1;

export const CASE_COUNT = 100_000;
/** Every case has 2 to 18 images, paired so that the total is exactly ten per case. */
export const IMAGE_COUNT = CASE_COUNT * 10;

/** Token subjects of the two callers the benchmark measures. */
export const SUBJECTS = { superUser: 'bench-super', member: 'bench-member' } as const;
/** 1-based positions in GROUP_NAMES of the member's groups: mid-sized ones, ~14% of all cases together. */
export const MEMBER_GROUPS = [4, 9, 14];
/** Cases of other groups shared with the member one by one, so the grants branch of visibility is not empty. */
const MEMBER_CASE_GRANTS = 20;

type Log = (line: string) => void;

/**
 * Fills a migrated, empty database with set-based SQL only (INSERT ... SELECT over generate_series):
 * one contract, 20 groups, 302 accounts with memberships, 100,000 cases, 1,000,000 images, labels
 * and a few grants. The secondary indexes of cases and images are dropped during the load and
 * rebuilt afterwards (exactly as the migrations define them), which is several times faster than
 * maintaining them row by row. setseed makes the data the same on every run.
 */
export async function generateSearchData(client: pg.ClientBase, log: Log): Promise<void> {
  const step = async (name: string, task: () => Promise<unknown>) => {
    const start = performance.now();
    await task();
    log(`  ${name.padEnd(44)} ${((performance.now() - start) / 1000).toFixed(1).padStart(6)} s`);
  };
  const q = (text: string, values: unknown[] = []) => client.query(text, values);

  await q(`SET synchronous_commit = off`);
  await q(`SET maintenance_work_mem = '1GB'`);
  await q(`SET max_parallel_maintenance_workers = 2`);
  await q(`SET work_mem = '256MB'`);
  // Foreign keys hold by construction; replica mode skips their per-row trigger checks during the load.
  await q(`SET session_replication_role = replica`);
  await q(`SELECT setseed(0.42)`);

  const { rows: dropped } = await q(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename IN ('cases', 'images')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  const indexes = dropped as { indexname: string; indexdef: string }[];
  await step(`drop ${indexes.length} secondary indexes for the load`, async () => {
    for (const index of indexes) await q(`DROP INDEX "${index.indexname}"`);
  });

  let superUserId = '';
  let memberId = '';
  await step('contract, groups, accounts, memberships', async () => {
    const { rows: contract } = await q(
      `INSERT INTO contracts (name, start_date, contractor_name) VALUES ('Benchmark contract', '2018-01-01', 'Benchmark Hospital Network') RETURNING id`,
    );
    await q(
      `CREATE TEMP TABLE bench_org AS
       SELECT k::int, gen_random_uuid() AS id, name FROM unnest($1::text[]) WITH ORDINALITY AS t(name, k)`,
      [[...GROUP_NAMES]],
    );
    await q(
      `INSERT INTO organizations (id, name, contract_id, prediction_enabled) SELECT id, name, $1, k % 3 <> 0 FROM bench_org`,
      [(contract[0] as { id: string }).id],
    );
    const { rows: people } = await q(
      `INSERT INTO accounts (email, subject, first_name, last_name, is_super_user, email_verified) VALUES
         ('bench-super@example.test', $1, 'Bench', 'Super', true, true),
         ('bench-member@example.test', $2, 'Bench', 'Member', false, true)
       RETURNING id, subject`,
      [SUBJECTS.superUser, SUBJECTS.member],
    );
    const ids = new Map((people as { id: string; subject: string }[]).map((row) => [row.subject, row.id]));
    superUserId = ids.get(SUBJECTS.superUser)!;
    memberId = ids.get(SUBJECTS.member)!;
    await q(
      `INSERT INTO accounts (email, subject, first_name, last_name, email_verified)
       SELECT format('user%s@example.test', lpad(g::text, 4, '0')), format('user-%s', g), 'User', g::text, true
       FROM generate_series(1, 300) AS g`,
    );
    await q(
      `INSERT INTO memberships (organization_id, account_id, role)
       SELECT o.id, $1::uuid, 'member' FROM bench_org o WHERE o.k = ANY($2::int[])`,
      [memberId, MEMBER_GROUPS],
    );
    // Everyone else belongs to one group, a few to a second one; one in ten administers theirs.
    await q(
      `INSERT INTO memberships (organization_id, account_id, role)
       SELECT o.id, a.id, (CASE WHEN random() < 0.1 THEN 'administrator' ELSE 'member' END)::group_role
       FROM accounts a JOIN bench_org o ON o.k = 1 + substr(a.subject, 6)::int % 20
       WHERE a.subject LIKE 'user-%'
       UNION ALL
       SELECT o.id, a.id, 'member'::group_role
       FROM accounts a JOIN bench_org o ON o.k = 1 + (substr(a.subject, 6)::int * 7 + 3) % 20
       WHERE a.subject LIKE 'user-%' AND substr(a.subject, 6)::int % 5 = 0
         AND (substr(a.subject, 6)::int * 7 + 3) % 20 <> substr(a.subject, 6)::int % 20`,
    );
  });

  await step('AI models per organ and specimen type', async () => {
    const models = AI_MODELS.filter((model) => model.status === 'available').flatMap((model) =>
      model.specimens.map((specimen) => ({ organ: model.organ, specimen, name: model.modelName })),
    );
    await q(
      `CREATE TEMP TABLE bench_model AS
       SELECT DISTINCT ON (organ, specimen) organ, specimen, name
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS m(organ, specimen, name, position)
       ORDER BY organ, specimen, position`,
      [models.map((m) => m.organ), models.map((m) => m.specimen), models.map((m) => m.name)],
    );
  });

  await step(`${CASE_COUNT.toLocaleString('en')} cases`, async () => {
    await q(CASES_SQL, [
      CASE_COUNT,
      GROUP_NAMES.length,
      DIAGNOSES.map((d) => d.text),
      DIAGNOSES.map((d) => d.organ),
      DIAGNOSES.map((d) => d.specimens.join(',')),
      [...CASE_TAGS],
      [...MICROSCOPIC_FINDINGS],
      [...CASE_COMMENTS],
    ]);
    await q(
      `INSERT INTO cases (id, case_number, owner_organization_id, intended_owner_organization_id, organ, specimen_type,
         diagnosis, gross_findings, microscopic_findings, comments, tags, is_public, created_at, updated_at)
       SELECT id, case_number, org_id, intended_org_id, organ, specimen_type::specimen_type, diagnosis, gross, micro,
         comments, tags, is_public, created_at, created_at
       FROM bench_case ORDER BY n`,
    );
  });

  await step(`${IMAGE_COUNT.toLocaleString('en')} images`, () => q(IMAGES_SQL, [[...STAINS], [...IMAGE_TAGS]]));

  await step('labels and grants', async () => {
    const publicNames = PUBLIC_LABEL_NAMES.slice(0, 8);
    await q(
      `INSERT INTO labelleds (case_id, account_id, visibility_type, label_name, created_at)
       SELECT id, $1::uuid, 'public', ($2::text[])[1 + floor(random() * cardinality($2::text[]))::int], created_at + interval '1 day'
       FROM bench_case WHERE random() < 0.03`,
      [superUserId, publicNames],
    );
    await q(
      `INSERT INTO labelleds (image_id, account_id, visibility_type, label_name, created_at)
       SELECT id, $1::uuid, 'public', ($2::text[])[1 + floor(random() * cardinality($2::text[]))::int], created_at + interval '1 day'
       FROM images WHERE random() < 0.01`,
      [superUserId, publicNames],
    );
    // Stars: the member's on 2% of the cases it sees, the super user's on 0.2% of all.
    await q(
      `INSERT INTO labelleds (case_id, account_id, visibility_type, label_name, created_at)
       SELECT c.id, $1::uuid, 'private'::label_visibility, $3::text, c.created_at + interval '2 days'
       FROM bench_case c JOIN bench_org o ON o.id = c.org_id WHERE o.k = ANY($4::int[]) AND random() < 0.02
       UNION ALL
       SELECT c.id, $2::uuid, 'private'::label_visibility, $3::text, c.created_at + interval '2 days' FROM bench_case c WHERE random() < 0.002`,
      [memberId, superUserId, PRIVATE_LABEL_NAME, MEMBER_GROUPS],
    );
    await q(
      `INSERT INTO grants (resource_type, case_id, granted_role, grantee_type, grantee_id)
       SELECT 'case', c.id, 'read_only', 'account', $1::uuid
       FROM bench_case c JOIN bench_org o ON o.id = c.org_id
       WHERE NOT (o.k = ANY($2::int[])) ORDER BY c.n DESC LIMIT $3`,
      [memberId, MEMBER_GROUPS, MEMBER_CASE_GRANTS],
    );
  });

  await q(`RESET session_replication_role`);
  await step(`rebuild ${indexes.length} secondary indexes`, async () => {
    for (const index of indexes) await q(index.indexdef);
  });
  await step('VACUUM ANALYZE, CHECKPOINT', async () => {
    await q(`VACUUM (ANALYZE) cases, images, labelleds, grants, organizations, accounts, memberships, contracts`);
    await q(`CHECKPOINT`);
  });
}

/**
 * bench_case: one row per case with everything the cases and images inserts need. Case numbers
 * look like "S24-012345": a prefix by specimen type, the two-digit year of creation, a number.
 * created_at grows with n (cases arrive over eight years), so the heap is in creation order.
 * Parameters: $1 case count, $2 group count, $3..$5 diagnosis texts, organs, specimen lists,
 * $6 case tags, $7 microscopic sentences, $8 comments.
 */
const CASES_SQL = `
CREATE TEMP TABLE bench_case AS
WITH base AS MATERIALIZED (
  SELECT n,
    1 + floor($2::int * power(random(), 1.6))::int AS org_k,
    CASE WHEN random() < 0.05 THEN 1 + floor($2::int * random())::int END AS intended_k,
    1 + floor(cardinality($3::text[]) * power(random(), 1.25))::int AS d,
    timestamptz '2018-01-04 00:00:00+00' + n * interval '2520 seconds' + random() * interval '6 hours' AS created_at,
    floor(random() * 6)::int AS tag_draws,
    random() AS r_specimen, random() AS r_prefix, random() AS r_site, random() AS r_suffix, random() AS r_pending
  FROM generate_series(1, $1::int) AS n
), typed AS MATERIALIZED (
  SELECT b.*, ($4::text[])[d] AS organ, ($3::text[])[d] AS phrase,
    (string_to_array(($5::text[])[d], ','))[1 + floor(r_specimen * cardinality(string_to_array(($5::text[])[d], ',')))::int] AS specimen_type
  FROM base b
), numbered AS MATERIALIZED (
  SELECT t.*,
    CASE WHEN r_prefix < 0.05 THEN 'H'
      ELSE CASE t.specimen_type WHEN 'surgical' THEN 'S' WHEN 'biopsy' THEN 'B' WHEN 'LBC' THEN 'C' ELSE 'A' END END
      || to_char(t.created_at AT TIME ZONE 'UTC', 'YY') || '-' || lpad((1 + floor(random() * 30000))::int::text, 6, '0')
      AS case_number
  FROM typed t
)
SELECT x.n, gen_random_uuid() AS id, o.id AS org_id, io.id AS intended_org_id, x.case_number, x.organ,
  x.specimen_type, x.created_at, m.name AS model_name,
  CASE WHEN x.r_pending < 0.03 THEN NULL ELSE
    CASE WHEN x.r_site < 0.6 THEN x.organ || ', ' || CASE x.specimen_type
        WHEN 'biopsy' THEN (ARRAY['biopsy', 'core needle biopsy', 'endoscopic biopsy', 'punch biopsy'])[1 + floor(random() * 4)::int]
        WHEN 'surgical' THEN (ARRAY['resection', 'excision', 'wide local excision', 'partial resection'])[1 + floor(random() * 4)::int]
        WHEN 'LBC' THEN 'liquid-based cytology' ELSE 'autopsy' END || ': '
      ELSE '' END
    || replace(replace(replace(replace(replace(replace(replace(x.phrase,
         '{grade}', (1 + floor(random() * 3))::int::text),
         '{level}', (ARRAY['low', 'intermediate', 'high'])[1 + floor(random() * 3)::int]),
         '{diff}', (ARRAY['well', 'moderately', 'poorly'])[1 + floor(random() * 3)::int]),
         '{gleason}', (ARRAY['3+3=6', '3+4=7', '4+3=7', '4+4=8', '4+5=9'])[1 + floor(random() * 5)::int]),
         '{bcc}', (ARRAY['nodular', 'superficial', 'infiltrative'])[1 + floor(random() * 3)::int]),
         '{n}', (1 + floor(random() * 5))::int::text),
         '{m}', (12 + floor(random() * 13))::int::text)
    || CASE WHEN x.r_suffix < 0.2 THEN ', see comment' WHEN x.r_suffix < 0.3 THEN '. Margins free of tumour.'
         WHEN x.r_suffix < 0.35 THEN ' (addendum to follow)' ELSE '' END
  END AS diagnosis,
  CASE WHEN x.specimen_type IN ('biopsy', 'surgical') THEN format(
    'Received in formalin, a %s %s measuring %s x %s x %s cm. Cut surface shows a %s area. Submitted in %s cassettes.',
    lower(x.organ), CASE x.specimen_type WHEN 'biopsy' THEN 'biopsy' ELSE 'resection specimen' END,
    round((0.2 + random() * 8)::numeric, 1), round((0.2 + random() * 5)::numeric, 1), round((0.1 + random() * 3)::numeric, 1),
    (ARRAY['firm white', 'tan soft', 'grey-white ill-defined', 'haemorrhagic', 'well-circumscribed yellow'])[1 + floor(random() * 5)::int],
    1 + floor(random() * 12)::int) END AS gross,
  ($7::text[])[1 + floor(random() * cardinality($7::text[]))::int] || ' '
    || ($7::text[])[1 + floor(random() * cardinality($7::text[]))::int] AS micro,
  CASE WHEN random() < 0.15 THEN ($8::text[])[1 + floor(random() * cardinality($8::text[]))::int] END AS comments,
  ARRAY(SELECT DISTINCT ($6::text[])[1 + floor(cardinality($6::text[]) * power(random(), 2.2))::int]
        FROM generate_series(1, x.tag_draws)) AS tags,
  random() < 0.03 AS is_public,
  -- Odd and even cases pair up: 10 + k and 10 - k images, k in 0..8, so the total is exactly 10 per case.
  10 + CASE WHEN x.n % 2 = 1 THEN 1 ELSE -1 END * (((x.n + 1) / 2)::bigint * 48271 % 9)::int AS image_count
FROM numbered x
JOIN bench_org o ON o.k = x.org_k
LEFT JOIN bench_org io ON io.k = x.intended_k
LEFT JOIN bench_model m ON m.organ = x.organ AND m.specimen = x.specimen_type`;

/**
 * Images of every bench_case row. Display names come in three styles: "HE x40 block A3" (60%),
 * "S24-012345-A3 HE" (25%) and "Ki-67 B2 level 3" (15%). Statuses are mostly available.
 * Parameters: $1 stains other than HE, $2 image tags.
 */
const IMAGES_SQL = `
WITH drawn AS MATERIALIZED (
  SELECT c.id AS case_id, c.case_number, c.organ, c.specimen_type, c.model_name, c.created_at, j,
    CASE WHEN random() < 0.55 THEN 'HE' ELSE ($1::text[])[1 + floor(random() * cardinality($1::text[]))::int] END AS stain,
    chr(65 + floor(random() * 6)::int) AS block, 1 + floor(random() * 9)::int AS piece, 1 + floor(random() * 4)::int AS level,
    floor(random() * 3)::int AS tag_draws,
    random() AS r_style, random() AS r_mag, random() AS r_status, random() AS r_format, random() AS r_model,
    random() AS r_organ, random() AS r_mag_tag, random() AS r_width, random() AS r_height, random() AS r_size
  FROM bench_case c, generate_series(1, c.image_count) AS j
), shaped AS MATERIALIZED (
  SELECT d.*,
    CASE WHEN r_mag < 0.55 THEN 20 WHEN r_mag < 0.9 THEN 40 ELSE 10 END AS mag,
    CASE WHEN r_format < 0.8 THEN 'svs' WHEN r_format < 0.95 THEN 'ndpi' ELSE 'tiff' END AS format,
    CASE WHEN r_status < 0.95 THEN 'available' WHEN r_status < 0.97 THEN 'processing' WHEN r_status < 0.98 THEN 'uploaded'
      WHEN r_status < 0.99 THEN 'process_failed' WHEN r_status < 0.995 THEN 'reserved' ELSE 'upload_failed' END AS status,
    ARRAY(SELECT DISTINCT ($2::text[])[1 + floor(cardinality($2::text[]) * power(random(), 1.5))::int]
          FROM generate_series(1, d.tag_draws)) AS tags
  FROM drawn d
)
INSERT INTO images (case_id, filename, display_name, status, size, format, staining, scanned_in, scanned_at, width, height,
  magnification, organ, specimen_type, model_name, image_tags, original_key, thumbnail_key, created_at, updated_at)
SELECT case_id,
  format('%s_%s.%s', case_number, lpad(j::text, 2, '0'), format),
  CASE WHEN r_style < 0.6 THEN format('%s x%s block %s%s', stain, mag, block, piece)
    WHEN r_style < 0.85 THEN format('%s-%s%s %s', case_number, block, piece, stain)
    ELSE format('%s %s%s level %s', stain, block, piece, level) END,
  status::image_status,
  (150000000 + r_size * 1850000000)::bigint,
  format, stain,
  CASE format WHEN 'svs' THEN 'Aperio GT 450' WHEN 'ndpi' THEN 'NanoZoomer S360' ELSE 'Pannoramic 250' END,
  created_at - interval '2 hours',
  CASE WHEN status = 'available' THEN 40000 + floor(r_width * 80000)::int END,
  CASE WHEN status = 'available' THEN 30000 + floor(r_height * 60000)::int END,
  CASE WHEN status = 'available' THEN mag END,
  CASE WHEN r_organ < 0.95 THEN organ END,
  specimen_type::specimen_type,
  CASE WHEN r_model < 0.35 THEN model_name END,
  CASE WHEN r_mag_tag < 0.5 THEN tags || ('x' || mag) ELSE tags END,
  CASE WHEN status NOT IN ('reserved', 'upload_failed') THEN format('originals/%s/%s.%s', case_id, j, format) END,
  CASE WHEN status = 'available' THEN format('thumbnails/%s/%s.jpg', case_id, j) END,
  created_at + j * interval '3 minutes',
  created_at + j * interval '3 minutes'
FROM shaped`;
