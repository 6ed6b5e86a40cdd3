import { LABEL_COLORS, PRIVATE_LABEL_NAME, PUBLIC_LABEL_ICONS, type SpecimenType } from '@pathology/contract';
import { comments, labelleds, mentions, notices } from '../schema/index.ts';
import { DEMO_ACCOUNTS, type DemoAccountIds, type DemoAccountKey } from './demo-accounts.ts';
import type { DemoCase } from './demo-cases.ts';
import { DEMO_MEMBERSHIPS, type DemoGroupKey } from './demo-groups.ts';
import type { Random } from './random.ts';
import type { DbTransaction } from './types.ts';

const HOUR = 60 * 60 * 1000;

const COMMENT_BODIES = [
  'Agree with the diagnosis.',
  'Presented at the tumour board on Tuesday; no change to management.',
  'Please compare with the previous specimen of this patient.',
  'Good teaching case; adding it to the resident slide set.',
  'Clinician called: requests the report by Friday.',
] as const;

/** Remarks that only make sense for some specimen types. */
const COMMENT_BODIES_BY_SPECIMEN: Record<SpecimenType, readonly string[]> = {
  biopsy: [
    'Deeper levels ordered before sign-out.',
    'Immunostains are back and support the diagnosis; addendum issued.',
  ],
  surgical: [
    'Margins re-inked and re-measured: closest margin confirmed.',
    'Additional blocks submitted from the tumour bed.',
  ],
  LBC: ['Rescreened by a second cytotechnologist; agree.', 'HPV co-testing recommended.'],
  autopsy: ['Neuropathology consultation requested.', 'Toxicology results pending.'],
};

/** Accounts of the people who may write in a group (read-only members only read). */
function writersOf(group: DemoGroupKey, people: DemoAccountIds): string[] {
  return DEMO_MEMBERSHIPS.filter(([g, , role]) => g === group && role !== 'read_only').map(([, a]) => people[a]);
}

function visibleTo(account: DemoAccountKey, all: readonly DemoCase[]): DemoCase[] {
  if (account === 'super') return all.filter((c) => c.isPublic);
  const groups = new Set(DEMO_MEMBERSHIPS.filter(([, a]) => a === account).map(([g]) => g));
  return all.filter((c) => groups.has(c.group));
}

/** Stars, public labels, a comment thread on some cases with two mentions, and notices. */
export async function seedDemoActivity(
  tx: DbTransaction,
  r: Random,
  people: DemoAccountIds,
  seeded: readonly DemoCase[],
  epoch: Date,
): Promise<void> {
  const labels: (typeof labelleds.$inferInsert)[] = [];
  for (const { key } of DEMO_ACCOUNTS) {
    for (const c of r.sample(visibleTo(key, seeded), r.int(2, 3))) {
      labels.push({ caseId: c.id, accountId: people[key], visibilityType: 'private', labelName: PRIVATE_LABEL_NAME });
    }
  }
  for (const c of r.sample(seeded, 12)) {
    for (const icon of r.sample(PUBLIC_LABEL_ICONS, r.int(1, 2))) {
      const labelName = `${icon}-${r.pick(LABEL_COLORS)}`;
      labels.push({ caseId: c.id, accountId: c.createdByAccountId, visibilityType: 'public', labelName });
    }
  }
  await tx.insert(labelleds).values(labels);

  const thread: (typeof comments.$inferInsert)[] = [];
  for (const c of r.sample(seeded, 8)) {
    const writers = writersOf(c.group, people);
    const bodies = r.sample([...COMMENT_BODIES, ...COMMENT_BODIES_BY_SPECIMEN[c.specimenType]], r.int(1, 3));
    bodies.forEach((body, i) => {
      thread.push({
        caseId: c.id,
        accountId: r.pick(writers),
        body,
        createdAt: new Date(c.createdAt.getTime() + (i + 1) * r.int(2, 30) * HOUR),
      });
    });
  }
  await tx.insert(comments).values(thread);
  await seedMentions(tx, people, seeded);
  await seedNotices(tx, people, epoch);
}

/** One mention each way between the member and the administrator, on cases both can see. */
async function seedMentions(tx: DbTransaction, people: DemoAccountIds, seeded: readonly DemoCase[]): Promise<void> {
  const shared = seeded.filter((c) => c.group === 'central');
  const pairs = [
    { author: 'admin', to: 'member', text: 'could you look at the deeper levels before sign-out?' },
    { author: 'member', to: 'admin', text: 'the immunostains are in; please review the addendum.' },
  ] as const;
  for (const [index, pair] of pairs.entries()) {
    const c = shared[index];
    if (!c) continue;
    const recipient = DEMO_ACCOUNTS.find((a) => a.key === pair.to);
    const body = `@${recipient?.firstName} ${recipient?.lastName} ${pair.text}`;
    const createdAt = new Date(c.createdAt.getTime() + 3 * HOUR);
    const [comment] = await tx
      .insert(comments)
      .values({ caseId: c.id, accountId: people[pair.author], body, createdAt })
      .returning({ id: comments.id });
    await tx.insert(mentions).values({
      commentId: comment?.id,
      caseId: c.id,
      mentionedAccountId: people[pair.to],
      authorAccountId: people[pair.author],
      label: c.caseNumber,
      message: body,
      createdAt,
    });
  }
}

async function seedNotices(tx: DbTransaction, people: DemoAccountIds, epoch: Date): Promise<void> {
  await tx.insert(notices).values([
    {
      title: 'Welcome to the demo installation',
      overview: 'Sample groups, cases and accounts to try every role. Data is reset when the demo is reinstalled.',
      body: '<p>This installation contains <strong>demo data</strong>: seven groups under two contracts and about forty cases.</p><p>Sign in with one of the demo accounts listed on the sign-in page to see the product as a read-only user, member, administrator, proprietor, provider employee or super user.</p>',
      openAt: new Date(epoch.getTime() - 14 * 24 * HOUR),
      permission: 'read_only',
      isDraft: false,
      authorAccountId: people.super,
      createdAt: new Date(epoch.getTime() - 14 * 24 * HOUR),
    },
    {
      title: 'Scheduled maintenance',
      overview: 'The service will be unavailable for about one hour for a database upgrade.',
      body: '<p>Maintenance window: Sunday 02:00–03:00 JST. Uploads in progress will resume afterwards.</p>',
      openAt: new Date(epoch.getTime() + 7 * 24 * HOUR),
      permission: 'member',
      isDraft: true,
      authorAccountId: people.super,
      createdAt: epoch,
    },
  ]);
}
