import type { OrganizationList } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { OrganizationRepository } from './organization.repository.ts';

interface Deps {
  organizations: Pick<OrganizationRepository, 'findSummaries'>;
  capabilities: Pick<CapabilitiesService, 'listOrganizationAccesses'>;
}

const byName = new Intl.Collator('ja', { numeric: true, sensitivity: 'base' });

export function createOrganizationService({ organizations, capabilities }: Deps) {
  return {
    /** Groups the caller may see, by name (the current-group default is the first one). */
    async list(caller: Caller): Promise<OrganizationList> {
      const accesses = await capabilities.listOrganizationAccesses(caller);
      const capabilitiesById = new Map(accesses.map((access) => [access.organization.id, access.capabilities]));
      const rows = await organizations.findSummaries([...capabilitiesById.keys()]);
      const data = rows
        .map((row) => ({ ...row, userCapabilities: capabilitiesById.get(row.id)! }))
        .sort((a, b) => byName.compare(a.name, b.name));
      return { data, total: data.length };
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
