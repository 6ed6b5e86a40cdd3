import { IMAGE_STATUSES, type Case, type CaseCapabilities, type ImageStatus } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { CaseRepository, CaseRow } from './case.repository.ts';

interface Deps {
  cases: Pick<CaseRepository, 'findCases'>;
  capabilities: Pick<CapabilitiesService, 'getManyCaseCapabilities'>;
}

/** A case row as the caller may see it: the slide provider only for super users. */
export function toCase(row: CaseRow, userCapabilities: CaseCapabilities, caller: Pick<Caller, 'isSuperUser'>): Case {
  const imageStatusCounts = Object.fromEntries(IMAGE_STATUSES.map((status) => [status, 0])) as Record<
    ImageStatus,
    number
  >;
  for (const [status, count] of Object.entries(row.imageStatusCounts)) {
    if (status in imageStatusCounts) imageStatusCounts[status as ImageStatus] = count;
  }
  return {
    id: row.id,
    caseNumber: row.caseNumber,
    organizationId: row.ownerOrganizationId,
    ownerOrganizationId: row.ownerOrganizationId,
    organizationName: row.organizationName,
    contractId: row.contractId,
    contractName: row.contractName,
    intendedOwnerOrganizationId: caller.isSuperUser ? row.intendedOwnerOrganizationId : null,
    organ: row.organ,
    specimenType: row.specimenType,
    diagnosis: row.diagnosis,
    grossFindings: row.grossFindings,
    microscopicFindings: row.microscopicFindings,
    comments: row.comments,
    tags: row.tags,
    isPublic: row.isPublic,
    numberOfImages: Object.values(imageStatusCounts).reduce((sum, count) => sum + count, 0),
    numberOfAttachments: row.numberOfAttachments,
    numberOfComments: row.numberOfComments,
    imageStatusCounts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    userCapabilities,
  };
}

/** Reads cases as responses, with the caller's capabilities computed by the capabilities module. */
export function createCaseViews({ cases, capabilities }: Deps) {
  /** The cases the caller may see, in the order asked; invisible ones are left out. */
  async function many(caller: Caller, ids: readonly string[]): Promise<Case[]> {
    // Capabilities first: they drop invisible and malformed ids before any row is read.
    const capabilitiesById = await capabilities.getManyCaseCapabilities(caller, ids);
    const rows = await cases.findCases([...capabilitiesById.keys()]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      const userCapabilities = capabilitiesById.get(id);
      return row == null || userCapabilities == null ? [] : [toCase(row, userCapabilities, caller)];
    });
  }

  return {
    many,
    /** One case; 404 when it is gone or invisible. */
    async one(caller: Caller, id: string): Promise<Case> {
      const [found] = await many(caller, [id]);
      if (found == null) throw HttpError.notFound();
      return found;
    },
  };
}

export type CaseViews = ReturnType<typeof createCaseViews>;
