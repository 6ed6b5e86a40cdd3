import { describe, expect, it } from 'vitest';
import { isMenuItemActive } from './menu.ts';

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
