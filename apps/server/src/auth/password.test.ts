import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('verifies hashes made with other cost parameters', async () => {
    const stored = await hashPassword('pw');
    const [, , , , salt] = stored.split('$');
    const { scryptSync } = await import('node:crypto');
    const weaker = `scrypt$1024$8$1$${salt}$${scryptSync('pw', Buffer.from(salt ?? '', 'base64url'), 32, { N: 1024 }).toString('base64url')}`;
    expect(await verifyPassword('pw', weaker)).toBe(true);
    expect(needsRehash(weaker)).toBe(true);
  });

  it('hashes at the cost it is given, and asks for a rehash of what is weaker than that cost', async () => {
    const cheap = await hashPassword('pw', 1024);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('pw', cheap)).toBe(true);
    expect(needsRehash(cheap, 1024)).toBe(false);
    expect(needsRehash(cheap)).toBe(true);
  });

  it('rejects malformed and hostile hashes without throwing', async () => {
    for (const stored of [
      '',
      'plain',
      'bcrypt$1$2$3$4$5',
      'scrypt$3$8$1$c2FsdA$a2V5',
      'scrypt$1073741824$8$1$c2FsdA$a2V5a2V5a2V5a2V5a2V5',
    ]) {
      expect(await verifyPassword('pw', stored)).toBe(false);
    }
  });
});
