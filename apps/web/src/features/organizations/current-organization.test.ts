import { describe, expect, it } from 'vitest';
import { isPickerSearchable, pickCurrentOrganization } from './current-organization.ts';

const groups = [
  { id: 'c', name: 'Sakura University Hospital' },
  { id: 'a', name: 'harbor Dermatopathology' },
  { id: 'b', name: 'Northern Regional Hospital' },
];

describe('pickCurrentOrganization', () => {
  it('keeps the stored group while the caller can see it', () => {
    expect(pickCurrentOrganization(groups, 'b')?.id).toBe('b');
  });

  it('falls back to the first group by name (case-insensitive) when nothing usable is stored', () => {
    expect(pickCurrentOrganization(groups, null)?.id).toBe('a');
    expect(pickCurrentOrganization(groups, undefined)?.id).toBe('a');
    expect(pickCurrentOrganization(groups, 'gone')?.id).toBe('a');
  });

  it('orders numbers naturally and does not reorder the given list', () => {
    const numbered = [
      { id: '10', name: 'Lab 10' },
      { id: '2', name: 'Lab 2' },
    ];
    expect(pickCurrentOrganization(numbered, null)?.id).toBe('2');
    expect(numbered[0]?.id).toBe('10');
  });

  it('has no current group without groups', () => {
    expect(pickCurrentOrganization([], 'a')).toBeUndefined();
  });
});

describe('isPickerSearchable', () => {
  it('is searchable only above 5 groups', () => {
    expect([0, 1, 5, 6, 40].map(isPickerSearchable)).toEqual([false, false, false, true, true]);
  });

  it('prefers, with nothing stored, the first group by name where the user can create cases', () => {
    const can = (canCreateCase: boolean) => ({ userCapabilities: { canCreateCase } });
    const mixed = [
      { id: 'a', name: 'Alpha (read only)', ...can(false) },
      { id: 'c', name: 'Charlie', ...can(true) },
      { id: 'b', name: 'Bravo', ...can(true) },
    ];
    expect(pickCurrentOrganization(mixed, null)?.id).toBe('b');
    expect(pickCurrentOrganization(mixed, 'a')?.id).toBe('a');
    expect(pickCurrentOrganization([{ id: 'a', name: 'A', ...can(false) }], null)?.id).toBe('a');
  });
});
