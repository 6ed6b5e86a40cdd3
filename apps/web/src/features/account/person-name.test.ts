import { describe, expect, it } from 'vitest';
import { accountName, fullName, initials } from './person-name.ts';

const mina = { firstName: 'Mina', lastName: 'Kobayashi', displayName: null, email: 'member@demo.test' };

describe('person names', () => {
  it('orders the full name by language', () => {
    expect(fullName(mina, 'en')).toBe('Mina Kobayashi');
    expect(fullName(mina, 'ja')).toBe('Kobayashi Mina');
    expect(fullName({ firstName: ' ', lastName: 'Ito' }, 'en')).toBe('Ito');
  });

  it('prefers the display name, then the full name, then the e-mail', () => {
    expect(accountName({ ...mina, displayName: 'Dr. Kobayashi' }, 'en')).toBe('Dr. Kobayashi');
    expect(accountName({ ...mina, displayName: '  ' }, 'en')).toBe('Mina Kobayashi');
    expect(accountName({ ...mina, firstName: '', lastName: '' }, 'ja')).toBe('member@demo.test');
  });

  it('makes avatar initials', () => {
    expect(initials('Mina Kobayashi')).toBe('MK');
    expect(initials('Akira de Tanaka')).toBe('AT');
    expect(initials('admin@demo.test')).toBe('AD');
    expect(initials('小林 美奈')).toBe('小');
    expect(initials('   ')).toBe('?');
  });
});
