import { relations } from 'drizzle-orm';
import { accounts } from './accounts.ts';
import { attachments } from './attachments.ts';
import { cases } from './cases.ts';
import { accountColors, colorPresets } from './colors.ts';
import { comments, mentions } from './comments.ts';
import { contractProprietors, contracts } from './contracts.ts';
import { drawings, imageNotes } from './drawings.ts';
import { grants } from './grants.ts';
import { imageAssociated, imageLayers, images } from './images.ts';
import { labelleds } from './labels.ts';
import { invitations, memberships, organizationPartners, organizations } from './organizations.ts';
import { predictions } from './predictions.ts';
import { noticeReads, notices } from './notices.ts';

// Kept in one file: relations reference tables both ways, and one module avoids import cycles.

export const accountsRelations = relations(accounts, ({ many }) => ({
  memberships: many(memberships),
  contractProprietors: many(contractProprietors),
  labelleds: many(labelleds),
}));

export const contractsRelations = relations(contracts, ({ many }) => ({
  organizations: many(organizations),
  proprietors: many(contractProprietors),
}));

export const contractProprietorsRelations = relations(contractProprietors, ({ one }) => ({
  contract: one(contracts, { fields: [contractProprietors.contractId], references: [contracts.id] }),
  account: one(accounts, { fields: [contractProprietors.accountId], references: [accounts.id] }),
}));

export const organizationsRelations = relations(organizations, ({ one, many }) => ({
  contract: one(contracts, { fields: [organizations.contractId], references: [contracts.id] }),
  memberships: many(memberships),
  cases: many(cases, { relationName: 'owner' }),
  colorPresets: many(colorPresets),
  partners: many(organizationPartners, { relationName: 'partnersOf' }),
  partnerOf: many(organizationPartners, { relationName: 'partner' }),
}));

export const organizationPartnersRelations = relations(organizationPartners, ({ one }) => ({
  organization: one(organizations, {
    fields: [organizationPartners.organizationId],
    references: [organizations.id],
    relationName: 'partnersOf',
  }),
  partner: one(organizations, {
    fields: [organizationPartners.partnerOrganizationId],
    references: [organizations.id],
    relationName: 'partner',
  }),
}));

export const membershipsRelations = relations(memberships, ({ one }) => ({
  organization: one(organizations, { fields: [memberships.organizationId], references: [organizations.id] }),
  account: one(accounts, { fields: [memberships.accountId], references: [accounts.id] }),
}));

export const invitationsRelations = relations(invitations, ({ one }) => ({
  organization: one(organizations, { fields: [invitations.organizationId], references: [organizations.id] }),
  contract: one(contracts, { fields: [invitations.contractId], references: [contracts.id] }),
}));

export const casesRelations = relations(cases, ({ one, many }) => ({
  owner: one(organizations, {
    fields: [cases.ownerOrganizationId],
    references: [organizations.id],
    relationName: 'owner',
  }),
  intendedOwner: one(organizations, {
    fields: [cases.intendedOwnerOrganizationId],
    references: [organizations.id],
  }),
  createdBy: one(accounts, { fields: [cases.createdByAccountId], references: [accounts.id] }),
  images: many(images),
  attachments: many(attachments),
  comments: many(comments),
  labelleds: many(labelleds),
  grants: many(grants),
}));

export const grantsRelations = relations(grants, ({ one }) => ({
  case: one(cases, { fields: [grants.caseId], references: [cases.id] }),
  organization: one(organizations, { fields: [grants.organizationId], references: [organizations.id] }),
}));

export const imagesRelations = relations(images, ({ one, many }) => ({
  case: one(cases, { fields: [images.caseId], references: [cases.id] }),
  uploadAccount: one(accounts, { fields: [images.uploadAccountId], references: [accounts.id] }),
  layers: many(imageLayers),
  associated: many(imageAssociated),
  predictions: many(predictions),
  labelleds: many(labelleds),
  comments: many(comments),
  drawings: many(drawings),
  notes: many(imageNotes),
}));

export const imageLayersRelations = relations(imageLayers, ({ one, many }) => ({
  image: one(images, { fields: [imageLayers.imageId], references: [images.id] }),
  drawings: many(drawings),
}));

export const imageAssociatedRelations = relations(imageAssociated, ({ one }) => ({
  image: one(images, { fields: [imageAssociated.imageId], references: [images.id] }),
}));

export const labelledsRelations = relations(labelleds, ({ one }) => ({
  case: one(cases, { fields: [labelleds.caseId], references: [cases.id] }),
  image: one(images, { fields: [labelleds.imageId], references: [images.id] }),
  account: one(accounts, { fields: [labelleds.accountId], references: [accounts.id] }),
}));

export const commentsRelations = relations(comments, ({ one, many }) => ({
  case: one(cases, { fields: [comments.caseId], references: [cases.id] }),
  image: one(images, { fields: [comments.imageId], references: [images.id] }),
  account: one(accounts, { fields: [comments.accountId], references: [accounts.id] }),
  mentions: many(mentions),
}));

export const mentionsRelations = relations(mentions, ({ one }) => ({
  comment: one(comments, { fields: [mentions.commentId], references: [comments.id] }),
  case: one(cases, { fields: [mentions.caseId], references: [cases.id] }),
}));

export const attachmentsRelations = relations(attachments, ({ one }) => ({
  case: one(cases, { fields: [attachments.caseId], references: [cases.id] }),
}));

export const drawingsRelations = relations(drawings, ({ one }) => ({
  image: one(images, { fields: [drawings.imageId], references: [images.id] }),
  layer: one(imageLayers, { fields: [drawings.imageLayerId], references: [imageLayers.id] }),
  account: one(accounts, { fields: [drawings.accountId], references: [accounts.id] }),
}));

export const imageNotesRelations = relations(imageNotes, ({ one }) => ({
  image: one(images, { fields: [imageNotes.imageId], references: [images.id] }),
  account: one(accounts, { fields: [imageNotes.accountId], references: [accounts.id] }),
}));

export const predictionsRelations = relations(predictions, ({ one }) => ({
  image: one(images, { fields: [predictions.imageId], references: [images.id] }),
  layer: one(imageLayers, { fields: [predictions.imageLayerId], references: [imageLayers.id] }),
}));

export const colorPresetsRelations = relations(colorPresets, ({ one }) => ({
  organization: one(organizations, { fields: [colorPresets.organizationId], references: [organizations.id] }),
}));

export const accountColorsRelations = relations(accountColors, ({ one }) => ({
  account: one(accounts, { fields: [accountColors.accountId], references: [accounts.id] }),
  case: one(cases, { fields: [accountColors.caseId], references: [cases.id] }),
}));

export const noticesRelations = relations(notices, ({ many }) => ({
  reads: many(noticeReads),
}));

export const noticeReadsRelations = relations(noticeReads, ({ one }) => ({
  notice: one(notices, { fields: [noticeReads.noticeId], references: [notices.id] }),
  account: one(accounts, { fields: [noticeReads.accountId], references: [accounts.id] }),
}));
