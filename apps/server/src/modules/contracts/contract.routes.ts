import {
  ContractListSchema,
  ContractOrganizationListSchema,
  ContractSchema,
  CreateContractRequestSchema,
  UpdateContractRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ContractService } from './contract.service.ts';

const Params = z.object({ id: z.string() });
const tags = ['contracts'];
const ProprietorListSchema = z.object({
  data: z.array(z.object({ accountId: z.uuid(), email: z.string(), name: z.string() })),
});

export const contractRoutes: FastifyPluginAsyncZod<{ service: ContractService }> = async (app, { service }) => {
  app.get(
    '/contracts',
    {
      schema: {
        operationId: 'listContracts',
        tags,
        summary: 'Contracts the caller owns (all for super users), by name',
        response: { 200: ContractListSchema },
      },
    },
    (request) => service.list(request.caller),
  );

  app.post(
    '/contracts',
    {
      schema: {
        operationId: 'createContract',
        tags,
        summary: 'Creates a contract; provider employees (who then own it) and super users',
        body: CreateContractRequestSchema,
        response: { 201: ContractSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.caller, request.body)),
  );

  app.get(
    '/contracts/:id',
    {
      schema: {
        operationId: 'getContract',
        tags,
        summary: 'One contract',
        params: Params,
        response: { 200: ContractSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id),
  );

  app.patch(
    '/contracts/:id',
    {
      schema: {
        operationId: 'updateContract',
        tags,
        summary: 'Changes a contract (merge-patch); its proprietors and super users',
        params: Params,
        body: UpdateContractRequestSchema,
        response: { 200: ContractSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.body),
  );

  app.delete(
    '/contracts/:id',
    {
      schema: {
        operationId: 'deleteContract',
        tags,
        summary: 'Deletes a contract without groups (409 otherwise); super users',
        params: Params,
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id);
      return reply.status(204).send();
    },
  );

  for (const authenticated of [true, false]) {
    const route = authenticated ? app.post.bind(app) : app.delete.bind(app);
    route(
      '/contracts/:id/authentications',
      {
        schema: {
          operationId: authenticated ? 'authenticateContract' : 'withdrawContractAuthentication',
          tags,
          summary: authenticated
            ? 'Marks the contract as checked by the provider; super users'
            : "Withdraws the provider's check of the contract; super users",
          params: Params,
          response: { 200: ContractSchema },
        },
      },
      (request) => service.setAuthenticated(request.caller, request.params.id, authenticated),
    );
  }

  app.get(
    '/contracts/:id/organizations',
    {
      schema: {
        operationId: 'listContractOrganizations',
        tags,
        summary: "The contract's groups with their storage use",
        params: Params,
        response: { 200: ContractOrganizationListSchema },
      },
    },
    (request) => service.organizations(request.caller, request.params.id),
  );

  app.get(
    '/contracts/:id/proprietors',
    {
      schema: {
        operationId: 'listContractProprietors',
        tags,
        summary: "The contract's proprietors; its proprietors and super users",
        params: Params,
        response: { 200: ProprietorListSchema },
      },
    },
    (request) => service.proprietors(request.caller, request.params.id),
  );

  app.delete(
    '/contracts/:id/proprietors/:email',
    {
      schema: {
        operationId: 'removeContractProprietor',
        tags,
        summary: 'Removes a proprietor; purge=true also deletes their account when it belongs nowhere else',
        params: Params.extend({ email: z.string() }),
        querystring: z.object({ purge: z.enum(['true', 'false']).optional() }),
        response: { 200: z.object({ accountDeleted: z.boolean() }) },
      },
    },
    (request) =>
      service.removeProprietor(request.caller, request.params.id, request.params.email, request.query.purge === 'true'),
  );
};
