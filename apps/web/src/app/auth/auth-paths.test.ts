import { describe, expect, it } from 'vitest';
import { authWindowCallbackKind, pathOf, returnToOf, safeReturnTo } from './auth-paths.ts';

describe('safeReturnTo', () => {
  it('keeps same-origin paths with their query and fragment', () => {
    expect(safeReturnTo('/my-account?tab=x')).toBe('/my-account?tab=x');
    expect(safeReturnTo('/cases/1#images')).toBe('/cases/1#images');
  });

  it('refuses other sites, other schemes and junk', () => {
    for (const value of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '',
      42,
      null,
    ]) {
      expect(safeReturnTo(value)).toBe('/');
    }
  });

  it('never returns into the auth flow itself', () => {
    expect(safeReturnTo('/auth/callback?code=1&state=2')).toBe('/');
    expect(safeReturnTo('/signed-out')).toBe('/');
    expect(safeReturnTo('/logout')).toBe('/');
    expect(safeReturnTo('/auth/callbacks-archive')).toBe('/auth/callbacks-archive');
  });
});

describe('returnToOf', () => {
  it('reads the return address from a sign-in state', () => {
    expect(returnToOf({ returnTo: '/cases?page=2' })).toBe('/cases?page=2');
    expect(returnToOf(undefined)).toBe('/');
    expect(returnToOf({ returnTo: 'https://evil.example' })).toBe('/');
  });
});

describe('authWindowCallbackKind and pathOf', () => {
  it('tells the popup and silent callbacks apart from app pages', () => {
    expect(authWindowCallbackKind('/auth/popup-callback')).toBe('popup');
    expect(authWindowCallbackKind('/auth/silent-callback')).toBe('silent');
    expect(authWindowCallbackKind('/auth/callback')).toBeUndefined();
  });

  it('joins path, query and fragment', () => {
    expect(pathOf({ pathname: '/my-account', search: '?tab=x', hash: '#top' })).toBe('/my-account?tab=x#top');
  });
});
