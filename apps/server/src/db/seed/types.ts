import type { SpecimenType } from '@pathology/contract';
import type { Db } from '../client.ts';

export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A seeded case as handed to later seeding steps. */
export interface SeededCase {
  id: string;
  caseNumber: string;
  ownerOrganizationId: string;
  organ: string;
  specimenType: SpecimenType;
  /** Account that created the case, the natural uploader of its images. */
  createdByAccountId: string;
  createdAt: Date;
}

/**
 * Adds slide images to seeded cases. The image pipeline supplies it: images need the blob store and
 * conversion jobs, which the database seed does not know about. Runs inside the seed transaction.
 */
export type DemoImageAttacher = (tx: DbTransaction, cases: readonly SeededCase[]) => Promise<void>;
