import { MESSAGES } from '@pathology/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoAuth, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { AVATAR_MESSAGES } from './avatar.ts';

describe('my account: names, attributes and picture (part 3 §2 account page, §7 accounts)', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await seedDemo(t.database.db);
  });

  const call = async (
    key: DemoKey,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object | Buffer,
    contentType?: string,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...(await demoAuth(t, key)), ...(contentType ? { 'content-type': contentType } : {}) },
      ...(payload ? { payload } : {}),
    });

  it('changes the caller’s own names; a blank display name falls back to first and last name', async () => {
    const updated = await call('member', 'POST', '/accounts/me/update', {
      firstName: ' Mina ',
      lastName: 'Kobayashi-Sato',
      displayName: 'Dr. Mina K.',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ firstName: 'Mina', lastName: 'Kobayashi-Sato', displayName: 'Dr. Mina K.' });
    const blank = await call('member', 'POST', '/accounts/me/update', {
      firstName: 'Mina',
      lastName: 'Kobayashi',
      displayName: '',
    });
    expect(blank.json().displayName).toBeNull();

    const invalid = await call('member', 'POST', '/accounts/me/update', {
      firstName: '',
      lastName: 'x'.repeat(101),
      displayName: null,
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toMatchObject({
      firstName: MESSAGES.fieldRequired,
      lastName: 'This field must be at most 100 characters',
    });
  });

  it('lets only super users change another account', async () => {
    const member = (await call('member', 'GET', '/accounts/me')).json();
    const names = { id: member.id, firstName: 'Mina', lastName: 'Kobayashi', displayName: 'M. Kobayashi' };
    expect((await call('admin', 'POST', '/accounts/update', names)).statusCode).toBe(403);
    expect((await call('super', 'POST', '/accounts/update', names)).statusCode).toBe(204);
    expect((await call('member', 'GET', '/accounts/me')).json().displayName).toBe('M. Kobayashi');
    const unknown = { ...names, id: '00000000-0000-4000-8000-000000000000' };
    expect((await call('super', 'POST', '/accounts/update', unknown)).statusCode).toBe(404);
  });

  it('changes affiliation and profile', async () => {
    const updated = await call('admin', 'POST', '/accounts/update/attributes', {
      affiliation: 'Sakura Central, Pathology',
      profile: 'GI pathology',
    });
    expect(updated.json()).toMatchObject({ affiliation: 'Sakura Central, Pathology', profile: 'GI pathology' });
  });

  it('stores a picture as a small square and removes it', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#7048e8' } })
      .jpeg()
      .toBuffer();
    const set = await call('member', 'PUT', '/accounts/me/avatar', photo, 'image/jpeg');
    expect(set.statusCode).toBe(200);
    const avatarUrl: string = set.json().avatarUrl;
    expect(avatarUrl.startsWith('data:image/webp;base64,')).toBe(true);
    const stored = await sharp(Buffer.from(avatarUrl.split(',')[1]!, 'base64')).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const notAnImage = await call('member', 'PUT', '/accounts/me/avatar', Buffer.from('<svg></svg>'), 'image/png');
    expect(notAnImage.statusCode).toBe(422);
    expect(notAnImage.json().message).toBe(AVATAR_MESSAGES.invalid);
    expect((await call('member', 'PUT', '/accounts/me/avatar', Buffer.from('x'), 'image/svg+xml')).statusCode).toBe(
      415,
    );

    const removed = await call('member', 'DELETE', '/accounts/me/avatar');
    expect(removed.json().avatarUrl).toBeNull();
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/accounts/me/update', payload: {} })).statusCode).toBe(
      401,
    );
  });
});
