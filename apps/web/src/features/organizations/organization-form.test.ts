import { MESSAGES, type Organization } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { EMPTY_ORGANIZATION_FORM, organizationFormSchema, organizationPatch } from './organization-form.ts';

const saved = {
  name: 'Lab',
  description: null,
  country: null,
  phone: null,
  postalCode: null,
  address: null,
  contact: null,
  storageLimitGb: 100,
  predictionEnabled: false,
  downloadDrawingsEnabled: true,
} as Organization;

describe('the group form', () => {
  it('reads blanks as "not set" and an empty limit as "no limit"', () => {
    const parsed = organizationFormSchema.parse({ ...EMPTY_ORGANIZATION_FORM, name: ' Lab ', phone: '  ' });
    expect(parsed).toMatchObject({ name: 'Lab', phone: null, storageLimitGb: null });
  });

  it("keeps the contract's messages", () => {
    const result = organizationFormSchema.safeParse({
      ...EMPTY_ORGANIZATION_FORM,
      name: '',
      address: 'x'.repeat(1001),
    });
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(messages).toEqual({ name: MESSAGES.fieldRequired, address: 'This field must be at most 1000 characters' });
  });

  it('sends only what changed, and no limits or flags without the right to set them', () => {
    const values = organizationFormSchema.parse({
      ...EMPTY_ORGANIZATION_FORM,
      name: 'Lab',
      phone: '03',
      storageLimitGb: 200,
      downloadDrawingsEnabled: true,
    });
    expect(organizationPatch(values, saved, true)).toEqual({ phone: '03', storageLimitGb: 200 });
    expect(organizationPatch(values, saved, false)).toEqual({ phone: '03' });
  });
});
