import type { SpecimenType } from '@pathology/contract';
import { cases } from '../schema/index.ts';
import type { CaseTemplate } from './case-template.ts';
import type { DemoAccountIds } from './demo-accounts.ts';
import { GENERAL_TEMPLATES } from './demo-case-catalogue.ts';
import { SPECIAL_TEMPLATES } from './demo-case-catalogue-special.ts';
import {
  DEMO_GROUPS,
  DEMO_MEMBERSHIPS,
  type DemoGroupIds,
  type DemoGroupKey,
  type NumberingStyle,
} from './demo-groups.ts';
import type { Random } from './random.ts';
import type { DbTransaction, SeededCase } from './types.ts';

const TEMPLATES: readonly CaseTemplate[] = [...GENERAL_TEMPLATES, ...SPECIAL_TEMPLATES];

export const DEMO_TAGS = [
  'teaching',
  'consult',
  'second-opinion',
  'tumor-board',
  'IHC-pending',
  'molecular',
  'research',
  'QA-review',
  'urgent',
  'follow-up',
] as const;

/** Skewed towards few tags, as in real case lists. */
const TAG_COUNTS = [0, 0, 1, 1, 1, 2, 2, 3, 4] as const;

const CLINICAL_ADDENDA = [
  'Prior specimen reviewed.',
  'Clinical photographs on file.',
  'Referred from an outside hospital.',
  'Urgent report requested by the clinician.',
] as const;

const SPECIMEN_LETTERS: Record<SpecimenType, string> = { surgical: 'S', biopsy: 'B', LBC: 'C', autopsy: 'A' };
const DAY = 24 * 60 * 60 * 1000;

export interface DemoCase extends SeededCase {
  group: DemoGroupKey;
  isPublic: boolean;
}

/** Creates each group's cases, oldest first so case numbers grow with time as a lab's do. */
export async function seedDemoCases(
  tx: DbTransaction,
  r: Random,
  people: DemoAccountIds,
  groups: DemoGroupIds,
  epoch: Date,
): Promise<DemoCase[]> {
  const seeded: DemoCase[] = [];
  const taken = new Set<string>();
  for (const [group, definition] of Object.entries(DEMO_GROUPS) as [
    DemoGroupKey,
    (typeof DEMO_GROUPS)[DemoGroupKey],
  ][]) {
    const templates = interleave(
      definition.caseKinds.map((kind) => r.shuffle(TEMPLATES.filter((template) => template.kind === kind))),
    );
    const authors = DEMO_MEMBERSHIPS.filter(([g, , role]) => g === group && role !== 'read_only').map(
      ([, a]) => people[a],
    );
    const dates = Array.from({ length: definition.caseCount }, () => caseDate(r, epoch)).sort((a, b) => +a - +b);
    const numbers = new CaseNumberer(r, definition.numbering, definition.prefix, taken);

    const rows = dates.map((createdAt, index) => {
      const template = templates[index % templates.length] as CaseTemplate;
      const text = template.write(r);
      return {
        caseNumber: numbers.next(template.specimenType, createdAt),
        ownerOrganizationId: groups[group],
        intendedOwnerOrganizationId: group === 'research' ? groups.northern : groups[group],
        organ: template.organ,
        specimenType: template.specimenType,
        ...text,
        comments: clinicalNote(r, template),
        tags: r.sample(DEMO_TAGS, r.pick(TAG_COUNTS)),
        isPublic: r.chance(definition.publicShare),
        createdByAccountId: r.pick(authors),
        createdAt,
        updatedAt: createdAt,
      };
    });
    const inserted = await tx.insert(cases).values(rows).returning({ id: cases.id });
    rows.forEach((row, index) => {
      seeded.push({
        id: (inserted[index] as { id: string }).id,
        caseNumber: row.caseNumber,
        ownerOrganizationId: row.ownerOrganizationId,
        organ: row.organ,
        specimenType: row.specimenType,
        createdByAccountId: row.createdByAccountId,
        createdAt: row.createdAt,
        group,
        isPublic: row.isPublic,
      });
    });
  }
  return seeded;
}

/** Round-robin over the lists, so a group with two specialities gets cases of both. */
function interleave<T>(lists: readonly T[][]): T[] {
  const result: T[] = [];
  for (let i = 0; result.length < lists.reduce((n, list) => n + list.length, 0); i++) {
    for (const list of lists) if (i < list.length) result.push(list[i] as T);
  }
  return result;
}

/** A moment in Japanese working hours (09:00–18:59 JST) within the 14 months before the epoch. */
function caseDate(r: Random, epoch: Date): Date {
  const day = new Date(epoch.getTime() - r.int(1, 420) * DAY);
  day.setUTCHours(r.int(0, 9), r.int(0, 59), r.int(0, 59), 0);
  return day;
}

function clinicalNote(r: Random, template: CaseTemplate): string {
  const sex = template.sex === 'any' ? r.pick(['female', 'male'] as const) : template.sex;
  const note = `${r.int(...template.ages)}-year-old ${sex}. ${template.history}`;
  return r.chance(0.35) ? `${note} ${r.pick(CLINICAL_ADDENDA)}` : note;
}

/**
 * Hands out case numbers in a lab's own format, with gaps as other cases take numbers in between.
 * Numbers are kept unique across groups too, so a demo case number names exactly one case.
 */
class CaseNumberer {
  private readonly sequences = new Map<string, number>();

  constructor(
    private readonly r: Random,
    private readonly style: NumberingStyle,
    private readonly prefix: string,
    private readonly taken: Set<string>,
  ) {}

  next(specimenType: SpecimenType, at: Date): string {
    for (;;) {
      const caseNumber = this.format(specimenType, at);
      if (!this.taken.has(caseNumber)) {
        this.taken.add(caseNumber);
        return caseNumber;
      }
    }
  }

  private format(specimenType: SpecimenType, at: Date): string {
    const year = at.getUTCFullYear();
    const yy = String(year % 100).padStart(2, '0');
    const letter = SPECIMEN_LETTERS[specimenType];
    const series = this.style === 'research' ? String(year) : `${letter}${yy}`;
    const previous =
      this.sequences.get(series) ?? (this.style === 'research' ? this.r.int(1, 150) : this.r.int(20, 900));
    const sequence = previous + this.r.int(1, 60);
    this.sequences.set(series, sequence);
    switch (this.style) {
      case 'standard':
        return `${letter}${yy}-${String(sequence).padStart(specimenType === 'biopsy' ? 4 : 5, '0')}`;
      case 'hospital-prefix':
        return `${this.prefix}-${letter}${yy}-${String(sequence).padStart(4, '0')}`;
      case 'research':
        return `${this.prefix}-${year}-${String(sequence).padStart(3, '0')}`;
    }
  }
}
