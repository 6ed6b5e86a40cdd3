import {
  ContractInvitationRequestSchema,
  InvitationRequestSchema,
  InvitationSentSchema,
  MEMBERSHIP_PAGE_SIZE,
  MembershipListQuerySchema,
  MembershipListSchema,
  MembershipSchema,
  PartnerListSchema,
  UpdateMembershipRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InvitationService } from './invitation.service.ts';
import type { MembershipService } from './membership.service.ts';

const Params = z.object({ id: z.string() });
const MemberParams = Params.extend({ email: z.string() });
const tags = ['memberships'];

export const membershipRoutes: FastifyPluginAsyncZod<{
  service: MembershipService;
  invitations: InvitationService;
}> = async (app, { service, invitations }) => {
  app.get(
    '/organizations/:id/memberships',
    {
      schema: {
        operationId: 'listMemberships',
        tags,
        summary: "A group's members, paged, sorted and filtered; needs the member list (administrator)",
        params: Params,
        querystring: MembershipListQuerySchema,
        response: { 200: MembershipListSchema },
      },
    },
    (request) => service.list(request.caller, request.params.id, request.query),
  );

  app.get(
    '/organizations/:id/memberships/all',
    {
      schema: {
        operationId: 'listAllMemberships',
        tags,
        summary: 'Every member of the group at once (up to 1,000), by e-mail; needs the member list',
        params: Params,
        response: { 200: MembershipListSchema },
      },
    },
    (request) =>
      service.list(request.caller, request.params.id, {
        page: 1,
        limit: 1000,
        field: 'email',
        direction: 'asc',
        manageType: 'all',
      }),
  );

  app.get(
    '/organizations/:id/memberships/:email',
    {
      schema: {
        operationId: 'getMembership',
        tags,
        summary: 'One member by e-mail address',
        params: MemberParams,
        response: { 200: MembershipSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id, request.params.email),
  );

  app.patch(
    '/organizations/:id/memberships/:email',
    {
      schema: {
        operationId: 'updateMembership',
        tags,
        summary: "Changes a member's role or team (merge-patch); never to or from a role above the caller's own",
        params: MemberParams,
        body: UpdateMembershipRequestSchema,
        response: { 200: MembershipSchema },
      },
    },
    (request) =>
      service.update(request.caller, request.params.id, request.params.email, {
        ...(request.body.roles ? { role: request.body.roles[0] } : {}),
        ...(request.body.team !== undefined ? { team: request.body.team } : {}),
      }),
  );

  app.delete(
    '/organizations/:id/memberships/:email',
    {
      schema: {
        operationId: 'removeMembership',
        tags,
        summary: 'Removes a member; purge=true also deletes their account when it belongs nowhere else',
        params: MemberParams,
        querystring: z.object({ purge: z.enum(['true', 'false']).optional() }),
        response: { 200: z.object({ accountDeleted: z.boolean() }) },
      },
    },
    (request) =>
      service.remove(request.caller, request.params.id, request.params.email, request.query.purge === 'true'),
  );

  app.get(
    '/organizations/:id/partners',
    {
      schema: {
        operationId: 'listPartners',
        tags,
        summary: 'Partner groups (their members view and comment on every case), 10 at a time',
        params: Params,
        querystring: z.object({
          page: z.coerce.number().int().min(1).default(1),
          limit: z.coerce.number().int().min(1).max(100).default(MEMBERSHIP_PAGE_SIZE),
        }),
        response: { 200: PartnerListSchema },
      },
    },
    (request) => service.partners(request.caller, request.params.id, request.query.page, request.query.limit),
  );

  for (const resend of [false, true]) {
    app.post(
      `/organizations/:id/invitations${resend ? '/resend' : ''}`,
      {
        schema: {
          operationId: resend ? 'resendInvitation' : 'inviteMember',
          tags,
          summary: resend
            ? 'Sends a pending invitation again with a new link (the old one stops working)'
            : 'Invites a person by e-mail with a role; needs invite-user',
          params: Params,
          body: InvitationRequestSchema,
          response: { 201: InvitationSentSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await invitations.inviteToOrganization(request.caller, request.params.id, request.body, { resend })),
    );

    app.post(
      `/contracts/:id/invitations${resend ? '/resend' : ''}`,
      {
        schema: {
          operationId: resend ? 'resendContractInvitation' : 'inviteProprietor',
          tags: ['contracts'],
          summary: resend
            ? 'Sends a pending proprietor invitation again with a new link'
            : "Invites a person by e-mail to own the contract; needs the contract's invite-user",
          params: Params,
          body: ContractInvitationRequestSchema,
          response: { 201: InvitationSentSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await invitations.inviteToContract(request.caller, request.params.id, request.body, { resend })),
    );
  }
};
