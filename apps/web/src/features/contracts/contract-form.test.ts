import { MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { contractFormSchema, emptyContractForm } from './contract-form.ts';

describe('the contract form', () => {
  it('reads blanks as "not set" and empty limits as "no limit"', () => {
    const parsed = contractFormSchema.parse({ ...emptyContractForm('2026-12-01'), name: 'Minato', tel: ' ' });
    expect(parsed).toMatchObject({
      name: 'Minato',
      tel: null,
      endDate: null,
      maxOrganizations: null,
      storageLimitGb: null,
    });
  });

  it('needs a name and an end date not before the start', () => {
    const result = contractFormSchema.safeParse({ ...emptyContractForm('2026-12-01'), endDate: '2026-01-01' });
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(messages).toMatchObject({ name: MESSAGES.fieldRequired });
    const dates = contractFormSchema.safeParse({
      ...emptyContractForm('2026-12-01'),
      name: 'x',
      endDate: '2026-01-01',
    });
    expect(dates.error!.issues[0]).toMatchObject({ path: ['endDate'] });
  });
});
