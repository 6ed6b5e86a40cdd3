import { User } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import { REAUTHENTICATE_COOLDOWN_MS, createAccessTokenProvider, createReauthenticator } from './session.ts';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function user(token: string, expiresInSeconds: number): User {
  return new User({
    access_token: token,
    token_type: 'Bearer',
    profile: { sub: 's', iss: 'i', aud: 'a', exp: 0, iat: 0 },
    expires_at: nowSeconds() + expiresInSeconds,
  });
}

describe('createAccessTokenProvider', () => {
  it('hands out the stored token while it is valid', async () => {
    const signinSilent = vi.fn();
    const provide = createAccessTokenProvider({ getUser: () => Promise.resolve(user('t1', 300)), signinSilent });
    await expect(provide()).resolves.toBe('t1');
    expect(signinSilent).not.toHaveBeenCalled();
  });

  it('has no token without a user', async () => {
    const provide = createAccessTokenProvider({ getUser: () => Promise.resolve(null), signinSilent: vi.fn() });
    await expect(provide()).resolves.toBeUndefined();
  });

  it('renews an expired token once for all the calls waiting for it', async () => {
    let finish: (value: User) => void = () => undefined;
    const signinSilent = vi.fn(() => new Promise<User | null>((resolve) => (finish = resolve)));
    const provide = createAccessTokenProvider({ getUser: () => Promise.resolve(user('old', -5)), signinSilent });
    const calls = [provide(), provide(), provide()].map((token) => Promise.resolve(token));
    await vi.waitFor(() => expect(signinSilent).toHaveBeenCalledTimes(1));
    finish(user('new', 600));
    await expect(Promise.all(calls)).resolves.toEqual(['new', 'new', 'new']);
  });

  it('sends no token when the renewal fails', async () => {
    const provide = createAccessTokenProvider({
      getUser: () => Promise.resolve(user('old', -5)),
      signinSilent: () => Promise.reject(new Error('login_required')),
    });
    await expect(provide()).resolves.toBeUndefined();
  });
});

describe('createReauthenticator', () => {
  function setup(startAt = 1_000_000) {
    const store = new Map<string, string>();
    let now = startAt;
    const manager = { removeUser: vi.fn(() => Promise.resolve()), signinRedirect: vi.fn(() => Promise.resolve()) };
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, v: string) => store.set(key, v),
    };
    const options = { now: () => now, storage, currentPath: () => '/cases?page=2' };
    return { manager, options, advance: (ms: number) => (now += ms) };
  }

  it('forgets the session and signs in again, returning to the current address', async () => {
    const { manager, options } = setup();
    const reauthenticate = createReauthenticator(manager, options);
    reauthenticate();
    reauthenticate();
    await vi.waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledTimes(1));
    expect(manager.removeUser).toHaveBeenCalledTimes(1);
    expect(manager.signinRedirect).toHaveBeenCalledWith(
      expect.objectContaining({ state: { returnTo: '/cases?page=2' } }),
    );
  });

  it('does not loop when the server keeps refusing fresh sessions', async () => {
    const { manager, options, advance } = setup();
    createReauthenticator(manager, options)();
    await vi.waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledTimes(1));

    // The next page (after the provider sent the browser back) gets a 401 again at once.
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    advance(2_000);
    createReauthenticator(manager, options)();
    expect(manager.signinRedirect).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalled();
    error.mockRestore();

    advance(REAUTHENTICATE_COOLDOWN_MS);
    createReauthenticator(manager, options)();
    await vi.waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledTimes(2));
  });
});
