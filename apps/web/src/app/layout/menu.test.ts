import { defaultMenu, type MenuItem, type RoleChecks } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { BASE_MENU, activeMenuKey, isMenuItemActive, resolveMenu } from './menu.ts';

const none: RoleChecks = {
  isMember: false,
  isAdministrator: false,
  isProprietor: false,
  isProviderEmployee: false,
  isSuperUser: false,
  canSeeOriginalUsedFileSize: false,
  canSeeMemberList: false,
  canCreateOrganization: false,
  canCreateContract: false,
};

describe('isMenuItemActive', () => {
  const cases = { path: '/cases' };

  it('matches the path and its sub-pages', () => {
    expect(isMenuItemActive(cases, '/cases')).toBe(true);
    expect(isMenuItemActive(cases, '/cases/42/images')).toBe(true);
  });

  it('does not match a path that merely starts with the same letters', () => {
    expect(isMenuItemActive(cases, '/cases-archive')).toBe(false);
    expect(isMenuItemActive(cases, '/organizations')).toBe(false);
  });
});

describe('activeMenuKey', () => {
  it('prefers the longest matching entry', () => {
    const items: MenuItem[] = [
      { key: 'organizations', path: '/notices' },
      { key: 'noticePosts', path: '/notices/posts' },
    ];
    expect(activeMenuKey(items, '/notices/posts/3/edit')).toBe('noticePosts');
    expect(activeMenuKey(items, '/notices/3')).toBe('organizations');
    expect(activeMenuKey(items, '/my-account')).toBeUndefined();
  });
});

describe('resolveMenu', () => {
  it('shows Groups and Cases to everyone while roles are unknown', () => {
    expect(BASE_MENU.map((item) => item.key)).toEqual(['organizations', 'cases']);
    expect(resolveMenu(undefined, undefined)).toBe(BASE_MENU);
    expect(resolveMenu(null, none).map((item) => item.key)).toEqual(['organizations', 'cases']);
  });

  it('builds the default menu from the role checks', () => {
    const owner = { ...none, isMember: true, isAdministrator: true, isProprietor: true };
    expect(resolveMenu(null, owner)).toEqual(defaultMenu(owner));
    expect(resolveMenu(null, owner).map((item) => item.key)).toEqual([
      'organizations',
      'cases',
      'bulkUpload',
      'users',
      'contracts',
    ]);
  });

  it("uses the server's list when it supplies one, even an empty one", () => {
    const server: MenuItem[] = [{ key: 'cases', path: '/cases' }];
    expect(resolveMenu(server, { ...none, isSuperUser: true })).toBe(server);
    expect(resolveMenu([], none)).toEqual([]);
  });
});
