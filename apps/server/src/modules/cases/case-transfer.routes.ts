import { CaseListSchema, CaseSchema, OrganizationListSchema, TransferCasesRequestSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CaseTransferService } from './case-transfer.service.ts';

// Plain strings: a malformed id names nothing the caller may see, so it answers 404.
const TransferParams = z.object({ id: z.string(), orgId: z.string() });
const OrganizationParams = z.object({ orgId: z.string() });
const CaseParams = z.object({ id: z.string() });

export const caseTransferRoutes: FastifyPluginAsyncZod<{ service: CaseTransferService }> = async (app, { service }) => {
  app.put(
    '/cases/:id/transfer/:orgId',
    {
      schema: {
        operationId: 'transferCase',
        tags: ['cases'],
        summary: 'Moves a case to another group; needs transfer on the case and case creation there',
        params: TransferParams,
        response: { 200: CaseSchema },
      },
    },
    (request) => service.transfer(request.caller, request.params.id, request.params.orgId),
  );

  app.put(
    '/cases/transfer/multiple/:orgId',
    {
      schema: {
        operationId: 'transferCases',
        tags: ['cases'],
        summary: 'Moves several cases to a group in one transaction: all of them or none',
        description:
          'organizationId is the group the cases were picked from. 404 when any case is invisible, 403 when ' +
          'any lacks transfer, 409 when any is no longer in organizationId.',
        params: OrganizationParams,
        body: TransferCasesRequestSchema,
        response: { 200: CaseListSchema },
      },
    },
    (request) => service.transferMany(request.caller, request.params.orgId, request.body),
  );

  // Registered before the {id} route only for readability: a static segment always wins over a parameter.
  app.post(
    '/organizations/transferable/all',
    {
      schema: {
        operationId: 'listTransferableOrganizations',
        tags: ['cases', 'organizations'],
        summary: 'Every group where the caller may create cases (global scope of bulk transfer)',
        response: { 200: OrganizationListSchema },
      },
    },
    (request) => service.transferableAll(request.caller),
  );

  app.post(
    '/organizations/transferable/:id',
    {
      schema: {
        operationId: 'listTransferableOrganizationsForCase',
        tags: ['cases', 'organizations'],
        summary: 'Groups the case may be moved to: where the caller may create cases, except its owner',
        params: CaseParams,
        response: { 200: OrganizationListSchema },
      },
    },
    (request) => service.transferableFor(request.caller, request.params.id),
  );
};
