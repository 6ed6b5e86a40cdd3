import { randomUUID } from 'node:crypto';
import type { GroupRole, ImageStatus, LabelInput } from '@pathology/contract';
import type { Caller } from '../src/auth/caller.ts';
import type { Db } from '../src/db/client.ts';
import {
  accounts,
  attachments,
  cases,
  comments,
  contractProprietors,
  contracts,
  grants,
  imageAssociated,
  imageLayers,
  images,
  labelleds,
  memberships,
  organizationPartners,
  organizations,
} from '../src/db/schema/index.ts';

/** Factories that create parent rows on demand, so each test builds only the world it talks about. */
export function factories(db: Db) {
  const f = {
    async contract(): Promise<string> {
      const [row] = await db.insert(contracts).values({ name: 'Contract', startDate: '2024-01-01' }).returning();
      return row!.id;
    },
    async organization(
      values: Partial<
        Pick<
          typeof organizations.$inferInsert,
          'contractId' | 'isProvider' | 'predictionEnabled' | 'downloadDrawingsEnabled' | 'drawingCreationDenied'
        >
      > = {},
    ): Promise<string> {
      const contractId = values.contractId ?? (await f.contract());
      const [row] = await db
        .insert(organizations)
        .values({ name: 'Group', ...values, contractId })
        .returning();
      return row!.id;
    },
    async caller(options: { isSuperUser?: boolean } = {}): Promise<Caller> {
      const email = `${randomUUID()}@example.test`;
      const [row] = await db
        .insert(accounts)
        .values({ email, isSuperUser: options.isSuperUser ?? false })
        .returning();
      return { accountId: row!.id, email, isSuperUser: row!.isSuperUser };
    },
    async join(caller: Caller, organizationId: string, role: GroupRole): Promise<void> {
      await db.insert(memberships).values({ accountId: caller.accountId, organizationId, role });
    },
    async case(values: Partial<Omit<typeof cases.$inferInsert, 'id'>> = {}): Promise<string> {
      const ownerOrganizationId = values.ownerOrganizationId ?? (await f.organization());
      const [row] = await db
        .insert(cases)
        .values({ caseNumber: 'S-1', ...values, ownerOrganizationId })
        .returning();
      return row!.id;
    },
    async image(
      caseId: string,
      values: Partial<Omit<typeof images.$inferInsert, 'id' | 'caseId'>> & { status?: ImageStatus } = {},
    ): Promise<string> {
      const filename = values.filename ?? `${randomUUID()}.svs`;
      const [row] = await db
        .insert(images)
        .values({ displayName: filename, status: 'available', ...values, filename, caseId })
        .returning();
      return row!.id;
    },
    async label(on: { caseId: string } | { imageId: string }, label: LabelInput, caller: Caller): Promise<string> {
      const [row] = await db
        .insert(labelleds)
        .values({ ...on, accountId: caller.accountId, ...label })
        .returning();
      return row!.id;
    },
    async grant(
      on: { caseId: string } | { organizationId: string },
      grantedRole: GroupRole,
      grantee: { account: string } | { organization: string },
    ): Promise<void> {
      await db.insert(grants).values({
        resourceType: 'caseId' in on ? 'case' : 'organization',
        caseId: 'caseId' in on ? on.caseId : null,
        organizationId: 'organizationId' in on ? on.organizationId : null,
        grantedRole,
        granteeType: 'account' in grantee ? 'account' : 'organization',
        granteeId: 'account' in grantee ? grantee.account : grantee.organization,
      });
    },
    async partner(organizationId: string, partnerOrganizationId: string): Promise<void> {
      await db.insert(organizationPartners).values({ organizationId, partnerOrganizationId });
    },
    async ownContract(caller: Caller, contractId: string): Promise<void> {
      await db.insert(contractProprietors).values({ contractId, accountId: caller.accountId });
    },
    /**
     * An account with names; give `subject` to sign in as it with `t.auth(subject)` (the token's
     * subject finds it, as a returning user's sign-in does).
     */
    async account(
      values: Partial<
        Pick<
          typeof accounts.$inferInsert,
          'subject' | 'email' | 'firstName' | 'lastName' | 'displayName' | 'isSuperUser'
        >
      > = {},
    ): Promise<Caller> {
      const email = values.email ?? `${values.subject ?? randomUUID()}@example.test`;
      const [row] = await db
        .insert(accounts)
        .values({ ...values, email })
        .returning();
      return { accountId: row!.id, email, isSuperUser: row!.isSuperUser };
    },
    async comment(
      caseId: string,
      author: Caller | null,
      values: Partial<Pick<typeof comments.$inferInsert, 'body' | 'imageId'>> = {},
    ): Promise<string> {
      const [row] = await db
        .insert(comments)
        .values({ body: 'A comment', ...values, caseId, accountId: author?.accountId ?? null })
        .returning();
      return row!.id;
    },
    async attachment(
      caseId: string,
      values: Partial<Pick<typeof attachments.$inferInsert, 'filename' | 'blobKey' | 'sizeBytes'>> = {},
    ): Promise<string> {
      const [row] = await db
        .insert(attachments)
        .values({
          filename: `${randomUUID()}.pdf`,
          contentType: 'application/pdf',
          sizeBytes: 1024,
          blobKey: `attachments/${randomUUID()}`,
          ...values,
          caseId,
        })
        .returning();
      return row!.id;
    },
    async imageLayer(
      imageId: string,
      values: Partial<
        Pick<
          typeof imageLayers.$inferInsert,
          'layerNumber' | 'pyramidKey' | 'pyramidalSize' | 'width' | 'height' | 'fromOriginal'
        >
      > = {},
    ): Promise<string> {
      const [row] = await db
        .insert(imageLayers)
        .values({
          layerNumber: 0,
          width: 1024,
          height: 1024,
          pyramidKey: `pyramids/${randomUUID()}`,
          ...values,
          imageId,
        })
        .returning();
      return row!.id;
    },
    async imageAssociated(
      imageId: string,
      values: { kind?: 'label' | 'macro' | 'thumbnail'; blobKey?: string } = {},
    ): Promise<string> {
      const [row] = await db
        .insert(imageAssociated)
        .values({ kind: 'label', blobKey: `associated/${randomUUID()}`, width: 64, height: 64, ...values, imageId })
        .returning();
      return row!.id;
    },
  };
  return f;
}
